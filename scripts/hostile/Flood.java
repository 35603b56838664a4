import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.PacketEncoder;
import org.rx4j.wire.PacketFlags;
import org.rx4j.wire.PacketType;
import org.rx4j.wire.RxHeader;

/**
 * Connection-flood probe (issue 12, rule 9), run by hand against a live server; not a test. Sends {@code count}
 * DATA packets from one socket, each the first packet (seq 1, LAST_PACKET, 100 bytes) of a call on a new
 * connection id, never answering anything. Paced in bursts of 1,000 with a 10 ms pause. Run with the shaded
 * rxperf jar on the class path:
 *
 * <pre>java -cp rx-perf/target/rxperf.jar scripts/hostile/Flood.java PORT [COUNT=100000] [SERVICE=147]</pre>
 */
public final class Flood {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int service = args.length > 2 ? Integer.parseInt(args[2]) : 147;
        InetAddress host = InetAddress.getLoopbackAddress();
        int epoch = 0x3BAD0000 | (int) (System.nanoTime() & 0xFFFF);
        try (DatagramSocket s = new DatagramSocket()) {
            for (int i = 0; i < count; i++) {
                RxHeader h = new RxHeader(epoch, 0x10000 + i * 4, 1, 1, 1, PacketType.DATA,
                        PacketFlags.CLIENT_INITIATED | PacketFlags.LAST_PACKET, 0, 0, 0, service);
                DataPacket p = new DataPacket(h, Unpooled.buffer(100).writeZero(100));
                ByteBuf out = PacketEncoder.encode(p, UnpooledByteBufAllocator.DEFAULT);
                p.release();
                byte[] bytes = new byte[out.readableBytes()];
                out.readBytes(bytes);
                out.release();
                s.send(new DatagramPacket(bytes, bytes.length, host, port));
                if (i % 1000 == 999) {
                    Thread.sleep(10);
                }
            }
        }
        System.out.printf("sent %d new-connection DATA packets from one socket%n", count);
    }
}
