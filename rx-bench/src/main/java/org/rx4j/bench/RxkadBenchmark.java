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
import org.rx4j.security.rxkad.Fcrypt;
import org.rx4j.security.rxkad.PacketChecksum;
import org.rx4j.security.rxkad.PacketProtection;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;

/**
 * rxkad's costs (docs/security.md "Speed"): one fcrypt block, the per-packet header checksum every rxkad packet
 * carries, and sealing a full 1444-byte DATA payload at crypt level (PCBC over 1440 bytes, in a pooled direct buffer
 * as the transport has them). The sealed payload is re-sealed each time: the cost is the same and no copy is timed.
 * Run: {@code java -jar rx-bench/target/benchmarks.jar RxkadBenchmark}.
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

    private final SessionKey key = new SessionKey(0x0123456789abcdefL);
    private final Fcrypt fcrypt = key.schedule();
    private final long connectionValue = key.connectionValue(0x5e6f7081, 0x00012340, 2);
    private long block = 0x1122334455667788L;
    private int seq;
    private ByteBuf payload;

    /** Allocates the packet buffer once per trial. */
    @Setup(Level.Trial)
    public void setUp() {
        payload = PooledByteBufAllocator.DEFAULT.directBuffer(PAYLOAD);
        payload.writeZero(PAYLOAD);
    }

    /** Releases the packet buffer. */
    @TearDown(Level.Trial)
    public void tearDown() {
        payload.release();
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
        return PacketProtection.seal(level, fcrypt, key.iv(), payload, 0, level.maxUserData(PAYLOAD), 7, ++seq);
    }
}
