package org.rx4j.perf.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.atomic.LongAdder;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.rpc.RxCodes;

/**
 * The client half of rxperf (rx-wire-facts.md §10, OpenAFS client_thread): one call per {@link #runCall}. Sends
 * the parameter block and the command's fields in one write, then the payload in {@code -w} chunks, finishes the
 * request, reads the reply in {@code -r} chunks and checks the cookie. Payload sent is the {@link PayloadPattern};
 * with {@code verify} the reply payload is checked against it.
 *
 * <p>One instance per client thread (it owns a read buffer of {@code readSize} bytes); not thread-safe.
 */
public final class RxperfClientWorkload {
    private final RxperfRequest request;
    private final boolean verify;
    private final LongAdder moved;
    private final byte[] readBuffer;
    private final byte[] header;

    /**
     * @param request what each call asks for
     * @param verify whether to check the reply payload pattern
     * @param moved counter of payload bytes moved (both directions), read by progress reporting
     */
    public RxperfClientWorkload(RxperfRequest request, boolean verify, LongAdder moved) {
        this.request = request;
        this.verify = verify;
        this.moved = moved;
        this.readBuffer = new byte[request.readSize()];
        this.header = encodeHeader(request);
    }

    /**
     * Runs one call on a connection and ends it.
     *
     * @param connection the connection (shared with at most 3 other threads)
     * @throws PerfCallException if the server or transport aborted the call (e.g. −1 for a rejected request)
     * @throws PayloadMismatchException if verifying and the reply breaks the pattern (the call is aborted
     *     with RX_USER_ABORT −6)
     * @throws RxperfProtocolException if the reply ends early or carries the wrong cookie (call aborted with −6)
     * @throws IOException if the transport fails
     */
    public void runCall(PerfConnection connection) throws IOException {
        PerfCall call = connection.newCall();
        try {
            exchange(call);
        } catch (IOException | RuntimeException e) {
            abandon(call, e);
            throw e;
        }
        call.close();
    }

    private void exchange(PerfCall call) throws IOException {
        OutputStream out = call.requestStream();
        InputStream in = call.replyStream();
        String name = request.command().name() + " reply";
        PayloadSender sender = new PayloadSender(out, request.writeSize(), moved);
        PayloadReceiver receiver = new PayloadReceiver(in, readBuffer, request.readSize(), verify, name, moved);
        out.write(header);
        switch (request.command()) {
            case SEND -> {
                sender.send(request.bytes());
                call.finishRequest();
                readCookie(in, name);
            }
            case RECV -> {
                call.finishRequest();
                receiver.receive(request.bytes());
                readCookie(in, name);
            }
            case RPC -> {
                sender.send(request.sendBytes());
                call.finishRequest();
                receiver.receive(request.receiveBytes());
                readCookie(in, name);
            }
            case FILE -> exchangeFile(call, sender, receiver);
        }
    }

    private void exchangeFile(PerfCall call, PayloadSender sender, PayloadReceiver receiver) throws IOException {
        FileWords words = request.fileWords();
        boolean reading = false;
        boolean requestFinished = false;
        for (int i = 0; i < words.size(); i++) {
            int word = words.word(i);
            if (word == 0) {
                reading = !reading;
            }
            long bytes = RxperfProtocol.FILE_WORD_UNIT * Integer.toUnsignedLong(word);
            if (bytes == 0) {
                continue;
            }
            if (reading) {
                if (!requestFinished) {
                    call.finishRequest();
                    requestFinished = true;
                }
                receiver.receive(bytes);
            } else if (requestFinished) {
                // FileWords rejects such lists; kept so a bad list can never write into a finished request
                throw new RxperfProtocolException("FILE word " + (i + 1) + " sends after the reply started");
            } else {
                sender.send(bytes);
            }
        }
    }

    private static void readCookie(InputStream in, String name) throws IOException {
        int cookie;
        try {
            cookie = RxperfProtocol.readInt32(in);
        } catch (java.io.EOFException e) {
            throw new RxperfProtocolException(name + " ended before the 4-byte cookie");
        }
        if (cookie != RxperfProtocol.MAGIC_COOKIE) {
            throw new RxperfProtocolException(String.format("%s carried cookie 0x%08x instead of 0x%08x", name,
                    cookie, RxperfProtocol.MAGIC_COOKIE));
        }
    }

    /** Ends a failed call without waiting for the rest of its reply; close's own error is secondary. */
    private static void abandon(PerfCall call, Exception cause) {
        try {
            if (!(cause instanceof PerfCallException)) {
                call.abort(RxCodes.RX_USER_ABORT);
            }
            call.close();
        } catch (IOException | RuntimeException e) {
            if (e != cause) {
                cause.addSuppressed(e);
            }
        }
    }

    private static byte[] encodeHeader(RxperfRequest request) {
        RxperfParamBlock block = new RxperfParamBlock(RxperfProtocol.VERSION, request.command().code(),
                request.readSize(), request.writeSize());
        int fields = switch (request.command()) {
            case SEND, RECV -> 1;
            case RPC -> 2;
            case FILE -> 1 + request.fileWords().size();
        };
        byte[] bytes = new byte[RxperfParamBlock.SIZE + 4 * fields];
        block.encode(bytes, 0);
        int at = RxperfParamBlock.SIZE;
        switch (request.command()) {
            case SEND, RECV -> RxperfProtocol.putInt32(request.bytes(), bytes, at);
            case RPC -> {
                RxperfProtocol.putInt32(request.sendBytes(), bytes, at);
                RxperfProtocol.putInt32(request.receiveBytes(), bytes, at + 4);
            }
            case FILE -> {
                FileWords words = request.fileWords();
                RxperfProtocol.putInt32(words.size(), bytes, at);
                for (int i = 0; i < words.size(); i++) {
                    RxperfProtocol.putInt32(words.word(i), bytes, at + 4 + 4 * i);
                }
            }
        }
        return bytes;
    }
}
