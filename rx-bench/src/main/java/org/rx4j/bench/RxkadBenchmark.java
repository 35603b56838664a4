// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rx4j.security.SecurityAbortException;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.security.rxkad.crypto.Fcrypt;
import org.rx4j.security.rxkad.crypto.PacketChecksum;
import org.rx4j.security.rxkad.crypto.PacketProtection;

/**
 * rxkad's costs (docs/security.md "Speed"): one fcrypt block, the per-packet header checksum every rxkad packet
 * carries, sealing a full 1444-byte DATA payload at crypt level (PCBC over 1440 bytes, in a pooled direct buffer as
 * the transport has them), and sealing and opening a 1412-byte payload (OpenAFS's packet size, the one its
 * jumbograms carry) at auth and at crypt. Sealing re-seals the same buffer each time: the cost is the same and no
 * copy is timed. Opening first copies the sealed 1412 bytes back into the buffer (opening decrypts in place), so
 * the open figures include one 1412-byte copy. Run: {@code java -jar rx-bench/target/benchmarks.jar RxkadBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-Dio.netty.leakDetection.level=disabled")
@State(Scope.Thread)
public class RxkadBenchmark {
    /** Payload bytes of a 1500-byte-MTU packet after the IP, UDP and Rx headers. */
    private static final int PAYLOAD = 1444;
    /** OpenAFS's payload size (RX_JUMBOBUFFERSIZE): what its jumbogram sub-packets carry. */
    private static final int OPENAFS_PAYLOAD = 1412;
    private static final int CALL = 7;
    private static final int OPEN_SEQ = 1;

    private final SessionKey key = new SessionKey(0x0123456789abcdefL);
    private final Fcrypt fcrypt = new Fcrypt(key.iv());
    private final long connectionValue = key.connectionValue(0x5e6f7081, 0x00012340, 2);
    private long block = 0x1122334455667788L;
    private int seq;
    private ByteBuf payload;
    private ByteBuf packet;
    private ByteBuf sealedAuth;
    private ByteBuf sealedCrypt;
    private int sealedAuthLength;
    private int sealedCryptLength;

    /**
     * Allocates the packet buffers once per trial and seals one 1412-byte payload at auth and at crypt, the packets
     * the open benchmarks restore and open.
     */
    @Setup(Level.Trial)
    public void setUp() {
        payload = PooledByteBufAllocator.DEFAULT.directBuffer(PAYLOAD);
        payload.writeZero(PAYLOAD);
        packet = PooledByteBufAllocator.DEFAULT.directBuffer(OPENAFS_PAYLOAD);
        packet.writeZero(OPENAFS_PAYLOAD);
        sealedAuth = PooledByteBufAllocator.DEFAULT.directBuffer(OPENAFS_PAYLOAD);
        sealedAuthLength = sealed(RxkadLevel.AUTH, sealedAuth);
        sealedCrypt = PooledByteBufAllocator.DEFAULT.directBuffer(OPENAFS_PAYLOAD);
        sealedCryptLength = sealed(RxkadLevel.CRYPT, sealedCrypt);
    }

    /** Fills {@code into} with a 1412-byte payload of patterned user data sealed at {@code level}. */
    private int sealed(RxkadLevel level, ByteBuf into) {
        for (int i = 0; i < OPENAFS_PAYLOAD; i++) {
            into.writeByte(i % 251);
        }
        return PacketProtection.seal(level, fcrypt, key.iv(), into, 0, level.maxUserData(OPENAFS_PAYLOAD), CALL,
                OPEN_SEQ);
    }

    /** Releases the packet buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
        payload.release();
        packet.release();
        sealedAuth.release();
        sealedCrypt.release();
    }

    /**
     * One fcrypt block encryption, chained on the previous result so it cannot be hoisted.
     *
     * @return the ciphertext block
     */
    @Benchmark
    public long fcryptBlock() {
        block = fcrypt.encrypt(block);
        return block;
    }

    /**
     * The 16-bit header checksum of one packet (a new seq each time).
     *
     * @return the checksum
     */
    @Benchmark
    public int packetChecksum() {
        return PacketChecksum.compute(fcrypt, connectionValue, 7, 0x00012341, ++seq);
    }

    /**
     * Seals a full payload at crypt level: security header, padding and PCBC over 1440 bytes.
     *
     * @return the sealed length
     */
    @Benchmark
    public int sealCryptPacket() {
        RxkadLevel level = RxkadLevel.CRYPT;
        return PacketProtection.seal(level, fcrypt, key.iv(), payload, 0, level.maxUserData(PAYLOAD), CALL, ++seq);
    }

    /**
     * Seals a 1412-byte payload at auth level: security header and the first block encrypted.
     *
     * @return the sealed length
     */
    @Benchmark
    public int sealAuth1412() {
        return seal1412(RxkadLevel.AUTH);
    }

    /**
     * Seals a 1412-byte payload at crypt level: security header, padding and PCBC over the whole payload.
     *
     * @return the sealed length
     */
    @Benchmark
    public int sealCrypt1412() {
        return seal1412(RxkadLevel.CRYPT);
    }

    private int seal1412(RxkadLevel level) {
        return PacketProtection.seal(level, fcrypt, key.iv(), packet, 0, level.maxUserData(OPENAFS_PAYLOAD), CALL,
                ++seq);
    }

    /**
     * Opens a 1412-byte payload sealed at auth level (after copying it back into the buffer).
     *
     * @return the user data length
     * @throws SecurityAbortException never: the packet is the one sealed in {@link #setUp()}
     */
    @Benchmark
    public int openAuth1412() throws SecurityAbortException {
        return open1412(RxkadLevel.AUTH, sealedAuth, sealedAuthLength);
    }

    /**
     * Opens a 1412-byte payload sealed at crypt level (after copying it back into the buffer): PCBC decryption of
     * the whole payload and the sealed word's check.
     *
     * @return the user data length
     * @throws SecurityAbortException never: the packet is the one sealed in {@link #setUp()}
     */
    @Benchmark
    public int openCrypt1412() throws SecurityAbortException {
        return open1412(RxkadLevel.CRYPT, sealedCrypt, sealedCryptLength);
    }

    private int open1412(RxkadLevel level, ByteBuf sealedPacket, int length) throws SecurityAbortException {
        packet.setBytes(0, sealedPacket, 0, length);
        return PacketProtection.open(level, fcrypt, key.iv(), packet, 0, length, CALL, OPEN_SEQ);
    }
}
