package org.rx4j.perf.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfCallHandler;
import org.rx4j.perf.transport.RxperfAbortException;

/**
 * The rxperf server: serves one call of service 147 as rx-wire-facts.md §10 specifies (OpenAFS
 * rxperf_ExecuteRequest behaviour). Reads the {@link RxperfParamBlock}; aborts with −1 a wrong version, a chunk
 * size outside 1..524288 or an unknown command; then
 * <ul>
 *   <li>SEND: reads int32 N, then N bytes; replies with the cookie;</li>
 *   <li>RECV: reads int32 N; replies with N bytes, then the cookie;</li>
 *   <li>RPC: reads int32 S and R, then S bytes; replies with R bytes, then the cookie;</li>
 *   <li>FILE: reads int32 n and n words; for each word w (unsigned) a word 0 first toggles direction, then 4·w bytes
 *       move in the current direction, starting with reading; no cookie.</li>
 * </ul>
 * Reads use the block's readSize as chunk size, writes its writeSize. Reply payload is always the
 * {@link PayloadPattern} (OpenAFS sends zeros; content is ignored by OpenAFS clients). With {@code verify} the
 * request payload is checked against the pattern, and a mismatch aborts the call with
 * {@link RxperfProtocol#ABORT_PATTERN_MISMATCH} (only rx4j clients send the pattern).
 *
 * <p>Beyond OpenAFS, for hostile input: a request that ends early, a negative length or more than
 * {@link RxperfProtocol#MAX_FILE_WORDS} FILE words is aborted with −1 (OpenAFS ignores short reads or exits).
 * Thread-safe: one instance serves all server threads; each thread reuses its own 512 KiB read buffer.
 */
public final class RxperfServerHandler implements PerfCallHandler {
    private static final ThreadLocal<byte[]> READ_BUFFER =
            ThreadLocal.withInitial(() -> new byte[RxperfProtocol.MAX_CHUNK]);

    private final boolean verify;
    private final Consumer<String> log;
    private final LongAdder payloadBytes = new LongAdder();
    private final LongAdder calls = new LongAdder();
    private final LongAdder aborts = new LongAdder();

    /**
     * @param verify whether to check request payload against the k mod 251 pattern ({@code server --verify})
     * @param log receives one line per aborted call (why it was aborted); called from server threads
     */
    public RxperfServerHandler(boolean verify, Consumer<String> log) {
        this.verify = verify;
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * Serves one call.
     *
     * @param request the request stream
     * @param reply the reply stream
     * @throws RxperfAbortException with −1 for a protocol rejection, 251 for a pattern mismatch
     * @throws IOException if a stream fails ({@link PerfCallException} when the client aborted or the call died)
     */
    @Override
    public void handle(InputStream request, OutputStream reply) throws IOException, RxperfAbortException {
        calls.increment();
        try {
            serve(request, reply);
        } catch (PayloadMismatchException e) {
            throw abort(RxperfProtocol.ABORT_PATTERN_MISMATCH, e.getMessage());
        } catch (RxperfProtocolException e) {
            throw abort(RxperfProtocol.ABORT_REJECTED, e.getMessage());
        } catch (EOFException e) {
            throw abort(RxperfProtocol.ABORT_REJECTED, "request ended inside rxperf's header fields");
        }
    }

    /**
     * Payload bytes this handler read and wrote so far, both directions (not counting rxperf's header fields).
     *
     * @return bytes
     */
    public long payloadBytes() {
        return payloadBytes.sum();
    }

    /**
     * Calls handled so far, including aborted ones.
     *
     * @return calls
     */
    public long calls() {
        return calls.sum();
    }

    /**
     * Calls this handler aborted so far.
     *
     * @return calls
     */
    public long aborts() {
        return aborts.sum();
    }

    private void serve(InputStream request, OutputStream reply) throws IOException, RxperfAbortException {
        RxperfParamBlock block = RxperfParamBlock.read(request);
        if (block.version() != RxperfProtocol.VERSION) {
            throw abort(RxperfProtocol.ABORT_REJECTED, "client has wrong version " + block.version());
        }
        checkChunk("read", block.readSize());
        checkChunk("write", block.writeSize());
        RxperfCommand command = RxperfCommand.fromCode(block.command()).orElseThrow(
                () -> abort(RxperfProtocol.ABORT_REJECTED, "client sent unsupported command " + block.command()));
        PayloadReceiver receiver = new PayloadReceiver(request, READ_BUFFER.get(), block.readSize(), verify,
                command.name() + " request", payloadBytes);
        PayloadSender sender = new PayloadSender(reply, block.writeSize(), payloadBytes);
        switch (command) {
            case SEND -> {
                receiver.receive(length(request, "SEND byte count"));
                writeCookie(reply);
            }
            case RECV -> {
                sender.send(length(request, "RECV byte count"));
                writeCookie(reply);
            }
            case RPC -> {
                int receiveBytes = length(request, "RPC send byte count");
                int sendBytes = length(request, "RPC receive byte count");
                receiver.receive(receiveBytes);
                sender.send(sendBytes);
                writeCookie(reply);
            }
            case FILE -> serveFile(request, receiver, sender);
        }
    }

    private void serveFile(InputStream request, PayloadReceiver receiver, PayloadSender sender)
            throws IOException, RxperfAbortException {
        int count = RxperfProtocol.readInt32(request);
        if (count < 0 || count > RxperfProtocol.MAX_FILE_WORDS) {
            throw abort(RxperfProtocol.ABORT_REJECTED, "FILE word count " + Integer.toUnsignedString(count)
                    + " is not in 0.." + RxperfProtocol.MAX_FILE_WORDS);
        }
        // the words come before any payload, so all are read first (as OpenAFS does)
        int[] words = new int[count];
        for (int i = 0; i < count; i++) {
            words[i] = RxperfProtocol.readInt32(request);
        }
        boolean reading = true;
        for (int word : words) {
            if (word == 0) {
                reading = !reading;
            }
            long bytes = RxperfProtocol.FILE_WORD_UNIT * Integer.toUnsignedLong(word);
            if (reading) {
                receiver.receive(bytes);
            } else {
                sender.send(bytes);
            }
        }
    }

    private int length(InputStream request, String what) throws IOException, RxperfAbortException {
        int value = RxperfProtocol.readInt32(request);
        if (value < 0) {
            throw abort(RxperfProtocol.ABORT_REJECTED, what + " " + value + " is negative");
        }
        return value;
    }

    private void checkChunk(String what, int size) throws RxperfAbortException {
        if (size < 1 || size > RxperfProtocol.MAX_CHUNK) {
            throw abort(RxperfProtocol.ABORT_REJECTED,
                    what + " chunk size " + size + " is not in 1.." + RxperfProtocol.MAX_CHUNK);
        }
    }

    private static void writeCookie(OutputStream reply) throws IOException {
        byte[] cookie = new byte[4];
        RxperfProtocol.putInt32(RxperfProtocol.MAGIC_COOKIE, cookie, 0);
        reply.write(cookie);
    }

    private RxperfAbortException abort(int code, String reason) {
        aborts.increment();
        log.accept("aborted call with code " + code + ": " + reason);
        return new RxperfAbortException(code, reason);
    }
}
