// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.call.CallState;
import org.rx4j.engine.connection.Connection;

/**
 * Small applications for packet-level tests: a service and a client call listener that record what
 * happened (calls started, bytes read, completion codes and times) and reply or send as told.
 */
public final class RecordingApps {
    private RecordingApps() {
    }

    /** What one call saw. */
    public static class CallRecord implements CallListener {
        final LongSupplier clock;
        public long bytesRead;
        public boolean readComplete;
        public boolean completed;
        public int code;
        public long completedAt = -1;
        public int completions;
        /** When false the application does not read (packets stay queued at the receiver). */
        public boolean reading = true;

        /** @param clock the virtual clock its times are read from, ns */
        public CallRecord(LongSupplier clock) {
            this.clock = clock;
        }

        @Override
        public boolean wantsData(Call c) {
            return reading;
        }

        @Override
        public void onData(Call c, ByteBuf b, long now) {
            bytesRead += b.readableBytes();
            b.release();
        }

        @Override
        public void onReadComplete(Call c, long now) {
            if (!readComplete) {
                readComplete = true;
                onRequestComplete(c);
            }
        }

        /** Called once the peer's whole stream has been read. */
        void onRequestComplete(Call c) {
        }

        @Override
        public void onWritable(Call c) {
        }

        @Override
        public void onComplete(Call c, int errorCode) {
            completions++;
            completed = true;
            code = errorCode;
            completedAt = clock.getAsLong();
        }
    }

    /** A service that records its calls and answers each complete request with {@code replyBytes} bytes. */
    public static final class Service implements ServiceHandler {
        final LongSupplier clock;
        public final List<Call> calls = new ArrayList<>();
        final List<CallRecord> records = new ArrayList<>();
        /** Reply size in bytes; negative = never reply. */
        int replyBytes;
        /** Whether new calls read their request. */
        public boolean reading = true;

        /**
         * @param clock the virtual clock, ns
         * @param replyBytes the reply's size in bytes; negative: never reply
         */
        public Service(LongSupplier clock, int replyBytes) {
            this.clock = clock;
            this.replyBytes = replyBytes;
        }

        @Override
        public void onNewCall(Call call) {
            calls.add(call);
            CallRecord r = new CallRecord(clock) {
                @Override
                void onRequestComplete(Call c) {
                    if (replyBytes >= 0 && !c.isDone()) {
                        if (replyBytes > 0) {
                            c.write(clock.getAsLong(), Unpooled.buffer(replyBytes).writeZero(replyBytes));
                        }
                        c.finishSending(clock.getAsLong());
                    }
                }
            };
            r.reading = reading;
            records.add(r);
            call.setListener(r);
        }

        /** @return how many calls the engine handed this service */
        public int newCalls() {
            return calls.size();
        }

        /** @return what call number {@code i} (from 0, in arrival order) saw */
        public CallRecord record(int i) {
            return records.get(i);
        }
    }

    /** A client call that sends {@code requestBytes} (then finishes) once it has a channel, and reads the reply. */
    public static class Client extends CallRecord {
        final int requestBytes;
        boolean sent;
        public Call call;

        /**
         * @param clock the virtual clock, ns
         * @param requestBytes the request's size in bytes
         */
        public Client(LongSupplier clock, int requestBytes) {
            super(clock);
            this.requestBytes = requestBytes;
        }

        /** @return a new call on {@code conn}, its request written as far as the window allows */
        public Call start(RxEngine engine, Connection conn) {
            call = engine.newCall(clock.getAsLong(), conn, this);
            onWritable(call);
            return call;
        }

        @Override
        public void onWritable(Call c) {
            if (sent || c.state() == CallState.WAITING) {
                return;
            }
            sent = true;
            if (requestBytes > 0) {
                c.write(clock.getAsLong(), Unpooled.buffer(requestBytes).writeZero(requestBytes));
            }
            c.finishSending(clock.getAsLong());
        }
    }
}
