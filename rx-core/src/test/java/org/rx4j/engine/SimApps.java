// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;

/**
 * Test applications for the simulator. Streams carry the pattern "byte k is k mod 251" (k counted from
 * the first byte of each direction of each call), so integrity is checked byte by byte without storing data.
 */
public final class SimApps {
    private SimApps() {
    }

    static final int CHUNK = 64 * 1024;
    /** The pattern's period, bytes. */
    private static final int PERIOD = 251;
    /**
     * The pattern from offset 0, long enough that any window of up to {@link #CHUNK} bytes starts inside its first
     * period: bulk copies and compares instead of a division per byte (the simulator tests move gigabytes).
     */
    private static final byte[] PATTERN = new byte[CHUNK + PERIOD];

    static {
        for (int i = 0; i < PATTERN.length; i++) {
            PATTERN[i] = (byte) (i % PERIOD);
        }
    }

    /** Writes the pattern bytes [from, from+len) into a new buffer. */
    public static ByteBuf pattern(long from, int len) {
        ByteBuf b = Unpooled.buffer(len);
        int off = (int) (from % PERIOD);
        while (len > 0) {
            int n = Math.min(len, CHUNK);
            b.writeBytes(PATTERN, off, n);
            off = (off + n) % PERIOD;
            len -= n;
        }
        return b;
    }

    /** Reads a stream and checks the pattern. */
    public static final class PatternReader {
        public long received;
        public long mismatches;
        private byte[] scratch = new byte[0];

        void consume(ByteBuf b) {
            try {
                while (b.isReadable()) {
                    int n = Math.min(b.readableBytes(), CHUNK);
                    if (scratch.length < n) {
                        scratch = new byte[Math.max(n, 2048)];
                    }
                    b.readBytes(scratch, 0, n);
                    int off = (int) (received % PERIOD);
                    // Fast path: the whole piece matches; else count every differing byte, as byte-by-byte would.
                    if (java.util.Arrays.mismatch(scratch, 0, n, PATTERN, off, off + n) >= 0) {
                        for (int i = 0; i < n; i++) {
                            if (scratch[i] != PATTERN[off + i]) {
                                mismatches++;
                            }
                        }
                    }
                    received += n;
                }
            } finally {
                b.release();
            }
        }
    }

    /** Writes {@code total} pattern bytes as the window allows, then finishes. */
    public static final class PatternWriter {
        final long total;
        public long sent;

        /** @param total how many pattern bytes to write */
        public PatternWriter(long total) {
            this.total = total;
        }

        void pump(Call call, long now) {
            while (sent < total && call.isWritable()) {
                int n = (int) Math.min(CHUNK, total - sent);
                call.write(now, pattern(sent, n));
                sent += n;
            }
            if (sent == total) {
                call.finishSending(now);
            }
        }
    }

    /**
     * Server side: the request starts with an 8-byte reply length, then pattern bytes (pattern counted
     * after those 8 bytes). The server replies with that many pattern bytes once the request is complete.
     */
    public static final class BulkServer implements ServiceHandler {
        final SimNetwork net;
        public long callsCompleted;
        public long callsFailed;
        public long lastError;
        /** Error code of every failed call, in order. */
        public final List<Integer> errors = new ArrayList<>();
        public long requestBytes;
        public long mismatches;
        public boolean reading = true;

        /** @param net the network whose clock the server reads */
        public BulkServer(SimNetwork net) {
            this.net = net;
        }

        @Override
        public void onNewCall(Call call) {
            call.setListener(new CallListener() {
                final ByteBuf header = Unpooled.buffer(8);
                final PatternReader reader = new PatternReader();
                PatternWriter writer;

                @Override
                public boolean wantsData(Call c) {
                    return reading;
                }

                @Override
                public void onData(Call c, ByteBuf b, long now) {
                    if (header.isWritable()) {
                        int n = Math.min(header.writableBytes(), b.readableBytes());
                        header.writeBytes(b, n);
                    }
                    reader.consume(b);
                }

                @Override
                public void onReadComplete(Call c, long now) {
                    if (c.isReadComplete() && writer == null) {
                        requestBytes += reader.received;
                        mismatches += reader.mismatches;
                        writer = new PatternWriter(header.readLong());
                        header.release();
                        writer.pump(c, net.now());
                    }
                }

                @Override
                public void onWritable(Call c) {
                    if (writer != null) {
                        writer.pump(c, net.now());
                    }
                }

                @Override
                public void onComplete(Call c, int errorCode) {
                    if (header.refCnt() > 0) {
                        header.release();
                    }
                    if (errorCode == 0) {
                        callsCompleted++;
                    } else {
                        callsFailed++;
                        lastError = errorCode;
                        errors.add(errorCode);
                    }
                }
            });
        }
    }

    /** Client side of {@link BulkServer}: sends the request, reads and checks the reply. */
    public static final class BulkClient implements CallListener {
        final SimNetwork net;
        public final long requestBytes;
        final long replyBytes;
        public final PatternReader reader = new PatternReader();
        public PatternWriter writer;
        public boolean headerSent;
        public boolean done;
        public int error;
        public long completedAt;
        public boolean reading = true;

        /**
         * @param net the network whose client engine the call starts on
         * @param requestBytes the request's pattern bytes after the 8-byte reply length
         * @param replyBytes the reply's size in bytes, asked of the server
         */
        public BulkClient(SimNetwork net, long requestBytes, long replyBytes) {
            this.net = net;
            this.requestBytes = requestBytes;
            this.replyBytes = replyBytes;
        }

        /** Starts the call on the network's client engine. */
        public Call start(Connection conn) {
            return start(net.client().engine, conn);
        }

        /** Starts the call on {@code engine} (a client engine of the network other than the first). */
        public Call start(RxEngine engine, Connection conn) {
            Call call = engine.newCall(net.now(), conn, this);
            onWritable(call);
            return call;
        }

        @Override
        public boolean wantsData(Call c) {
            return reading;
        }

        @Override
        public void onData(Call c, ByteBuf b, long now) {
            reader.consume(b);
        }

        @Override
        public void onWritable(Call c) {
            if (c.state() == CallState.WAITING) {
                return;
            }
            if (!headerSent) {
                headerSent = true;
                ByteBuf h = Unpooled.buffer(8).writeLong(replyBytes);
                c.write(net.now(), h);
                writer = new PatternWriter(requestBytes);
            }
            writer.pump(c, net.now());
        }

        @Override
        public void onComplete(Call c, int errorCode) {
            done = true;
            error = errorCode;
            completedAt = net.now();
        }
    }
}
