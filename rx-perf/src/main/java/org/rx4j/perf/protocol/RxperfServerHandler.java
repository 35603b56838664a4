// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

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
 *
 * <p>Small calls (RPC with at most {@link #SMALL_PAYLOAD_MAX} bytes each way, RECV of at most {@link #SMALL_RECV_MAX},
 * SEND of at most {@link #SMALL_SEND_MAX}) take the {@link #handleSmall} path: the transport gathers the whole request
 * and the reply is built at once, on its event loop, without a server thread; the bytes on the wire, the checks, the
 * abort codes and the counters are the same as on the stream path.
 */
public final class RxperfServerHandler implements PerfCallHandler {
    private static final ThreadLocal<byte[]> READ_BUFFER =
            ThreadLocal.withInitial(() -> new byte[RxperfProtocol.MAX_CHUNK]);

    /** Most payload bytes per direction a call may have to be served by {@link #handleSmall}, bytes. */
    public static final int SMALL_PAYLOAD_MAX = 65536;
    /**
     * Most bytes of a SEND served by {@link #handleSmall}, its payload gathered on the loop (1 MiB). Against a C
     * client (OpenAFS's 1,412-byte packets in jumbograms) this beat handing the call to a server thread whose stream
     * the loop feeds: loopback, 3 rounds, `-c send -b 1048576 -T 100` 0.89× C ↔ C against 0.61×, `-b 131072 -T 800`
     * 0.89× against 0.59×; between two namespaces at MTU 9000 0.74× against 0.72× and 0.72× against 0.62×.
     */
    public static final int SMALL_SEND_MAX = 1 << 20;
    /**
     * Most bytes of a RECV served by {@link #handleSmall} (1 MiB): its reply is the shared pattern array, written on
     * the loop without a server thread. Loopback, 3 rounds, × C ↔ C: rx4j client 1 MiB 3.08× against 1.66× on a
     * server thread, 128 KiB 1.83× against 1.36×; C client 0.63× against 0.62×, 0.78× against 0.68×.
     */
    public static final int SMALL_RECV_MAX = 1 << 20;
    /** Request bytes {@link #isSmallCall} looks at: the parameter block and RPC's two sizes. */
    private static final int SMALL_PREFIX = RxperfParamBlock.SIZE + 8;

    private final boolean verify;
    /** The last small reply built (pattern + cookie), shared by calls of the same reply size; immutable. */
    private volatile byte[] lastSmallReply = new byte[0];
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

    @Override
    public int smallCallPrefixBytes() {
        return SMALL_PREFIX;
    }

    /**
     * A small call is a correct RPC whose request and reply payloads are at most {@link #SMALL_PAYLOAD_MAX} bytes,
     * a correct RECV of at most {@link #SMALL_RECV_MAX} or a correct SEND of at most {@link #SMALL_SEND_MAX};
     * anything else (including every rejected request, so that its abort message is the stream path's) is left to
     * {@link #handle}.
     */
    @Override
    public boolean isSmallCall(byte[] prefix, int length, boolean wholeRequest) {
        if (length < RxperfParamBlock.SIZE + 4 || int32(prefix, 0) != RxperfProtocol.VERSION
                || !chunkOk(int32(prefix, 8)) || !chunkOk(int32(prefix, 12))) {
            return false;
        }
        int command = int32(prefix, 4);
        int first = int32(prefix, RxperfParamBlock.SIZE);
        if (command == RxperfCommand.RECV.code()) {
            return wholeRequest && length == RxperfParamBlock.SIZE + 4 && atMost(first, SMALL_RECV_MAX);
        }
        if (command == RxperfCommand.SEND.code()) {
            return atMost(first, SMALL_SEND_MAX);
        }
        return command == RxperfCommand.RPC.code() && length == SMALL_PREFIX && atMost(first, SMALL_PAYLOAD_MAX)
                && atMost(int32(prefix, RxperfParamBlock.SIZE + 4), SMALL_PAYLOAD_MAX);
    }

    /**
     * Serves a call {@link #isSmallCall} chose, whole: checks the request payload (with {@code verify}) and
     * returns the reply payload and cookie.
     *
     * @param firstWord the version (already checked)
     * @param rest the request after the version: command, chunk sizes, the command's fields, payload
     * @return the reply; shared between calls of the same reply size, never changed
     * @throws RxperfAbortException −1 if the request ends early, 251 for a pattern mismatch (RPC and SEND payload)
     */
    @Override
    public byte[] handleSmall(int firstWord, byte[] rest) throws RxperfAbortException {
        calls.increment();
        int at = RxperfParamBlock.SIZE - 4; // the command's fields, after command, readSize and writeSize
        int command = int32(rest, 0);
        int replyBytes;
        if (command == RxperfCommand.RPC.code()) {
            replyBytes = int32(rest, at + 4);
            checkRequestPayload("RPC request", rest, at + 8, int32(rest, at));
        } else if (command == RxperfCommand.SEND.code()) {
            replyBytes = 0;
            checkRequestPayload("SEND request", rest, at + 4, int32(rest, at));
        } else {
            replyBytes = int32(rest, at);
        }
        payloadBytes.add(replyBytes);
        return smallReply(replyBytes);
    }

    /** Checks (with verify) and counts a whole request's payload; aborts as the stream path does. */
    private void checkRequestPayload(String what, byte[] rest, int payloadAt, int requestBytes)
            throws RxperfAbortException {
        int got = Math.max(0, Math.min(requestBytes, rest.length - payloadAt));
        if (verify) {
            int bad = PayloadPattern.mismatch(rest, payloadAt, got, 0);
            if (bad >= 0) {
                PayloadMismatchException e = new PayloadMismatchException(what, bad, rest[payloadAt + bad]);
                throw abort(RxperfProtocol.ABORT_PATTERN_MISMATCH, e.getMessage());
            }
        }
        payloadBytes.add(got);
        if (got < requestBytes) {
            throw abort(RxperfProtocol.ABORT_REJECTED, what + " ended after " + got + " of " + requestBytes
                    + " payload bytes");
        }
    }

    /** The pattern's first {@code bytes} bytes and the cookie; the last one built is kept for the next call. */
    private byte[] smallReply(int bytes) {
        byte[] reply = lastSmallReply;
        if (reply.length != bytes + 4) {
            reply = new byte[bytes + 4];
            PayloadPattern.fill(reply, 0, bytes);
            RxperfProtocol.putInt32(RxperfProtocol.MAGIC_COOKIE, reply, bytes);
            lastSmallReply = reply;
        }
        return reply;
    }

    private static boolean atMost(int bytes, int max) {
        return bytes >= 0 && bytes <= max;
    }

    private static boolean chunkOk(int size) {
        return size >= 1 && size <= RxperfProtocol.MAX_CHUNK;
    }

    private static int int32(byte[] b, int i) {
        return ((b[i] & 0xff) << 24) | ((b[i + 1] & 0xff) << 16) | ((b[i + 2] & 0xff) << 8) | (b[i + 3] & 0xff);
    }
}
