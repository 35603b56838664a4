// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.atomic.LongAdder;
import org.rx4j.perf.transport.PerfCall;
import org.rx4j.perf.transport.PerfCallException;
import org.rx4j.perf.transport.PerfConnection;
import org.rx4j.rpc.errors.RxCodes;

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
    /** The whole RPC request for {@link #wholeRequest()}, built on first use. */
    private byte[] wholeRequest;

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
        // The payload source is filled here, before the run's clock starts, as OpenAFS's rxperf clears its send
        // buffer in main() before its timer: filling it is set-up, not a call (docs/rxperf.md, "The first call").
        PayloadPattern.source();
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

    /**
     * Whether {@code request} can run as one whole request/response call ({@link #wholeRequest()},
     * {@link #checkWholeReply}): an RPC whose payloads are at most {@code maxBytes} each, a SEND or a RECV of at most
     * {@code maxBytes}. FILE calls interleave their directions word by word, so never.
     *
     * @param request the request
     * @param maxBytes the most payload bytes per direction, bytes
     * @return true for such a call
     */
    public static boolean fitsWholeCall(RxperfRequest request, int maxBytes) {
        return switch (request.command()) {
            case RPC -> request.sendBytes() <= maxBytes && request.receiveBytes() <= maxBytes;
            case SEND, RECV -> request.bytes() <= maxBytes;
            case FILE -> false;
        };
    }

    /** @return the payload bytes the client sends per call: RPC's -S, SEND's -b, none for RECV */
    private int requestPayloadBytes() {
        return switch (request.command()) {
            case RPC -> request.sendBytes();
            case SEND -> request.bytes();
            case RECV, FILE -> 0;
        };
    }

    /** @return the payload bytes the client receives per call before the cookie: RPC's -R, RECV's -b, none for SEND */
    private int replyPayloadBytes() {
        return switch (request.command()) {
            case RPC -> request.receiveBytes();
            case RECV -> request.bytes();
            case SEND, FILE -> 0;
        };
    }

    /**
     * The whole request of an RPC, SEND or RECV call, as {@link #runCall} writes it (header, then the send payload
     * pattern, if any); built once per workload.
     *
     * @return the bytes; shared, must not be changed
     * @throws IllegalStateException if the command is FILE
     */
    public byte[] wholeRequest() {
        if (request.command() == RxperfCommand.FILE) {
            throw new IllegalStateException("FILE calls have no whole-call form");
        }
        if (wholeRequest == null) {
            int payload = requestPayloadBytes();
            byte[] bytes = java.util.Arrays.copyOf(header, header.length + payload);
            PayloadPattern.fill(bytes, header.length, payload);
            wholeRequest = bytes;
        }
        return wholeRequest;
    }

    /**
     * Checks the whole reply of an RPC, SEND or RECV call as {@link #runCall} reads it (payload, then the cookie;
     * bytes after the cookie are ignored) and counts the call's payload bytes, both directions, in {@code moved}.
     *
     * @param reply the reply bytes
     * @throws RxperfProtocolException if the reply ends early or carries the wrong cookie
     * @throws PayloadMismatchException if verifying and the payload breaks the pattern
     */
    public void checkWholeReply(byte[] reply) throws RxperfProtocolException {
        int payload = replyPayloadBytes();
        int got = Math.min(payload, reply.length);
        if (verify) {
            // the stream path checks in read-size chunks; the first wrong byte is the same either way
            int bad = PayloadPattern.mismatch(reply, 0, got, 0);
            if (bad >= 0) {
                throw new PayloadMismatchException(replyName(), bad, reply[bad]);
            }
        }
        if (got < payload) {
            throw new RxperfProtocolException(replyName() + " ended after " + got + " of " + payload
                    + " payload bytes");
        }
        if (reply.length < payload + 4) {
            throw new RxperfProtocolException(replyName() + " ended before the 4-byte cookie");
        }
        int cookie = ((reply[payload] & 0xff) << 24) | ((reply[payload + 1] & 0xff) << 16)
                | ((reply[payload + 2] & 0xff) << 8) | (reply[payload + 3] & 0xff);
        if (cookie != RxperfProtocol.MAGIC_COOKIE) {
            throw new RxperfProtocolException(String.format("%s carried cookie 0x%08x instead of 0x%08x", replyName(),
                    cookie, RxperfProtocol.MAGIC_COOKIE));
        }
        moved.add((long) requestPayloadBytes() + payload);
    }

    /** @return the reply's name in a failure's message, e.g. "RPC reply" (built only for a failure) */
    private String replyName() {
        return request.command().name() + " reply";
    }
}
