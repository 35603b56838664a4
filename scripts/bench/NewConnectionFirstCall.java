// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxEndpoint;

/**
 * The first call of a new connection from an address the server has already proven, against the next call on the
 * same connection (docs/robustness.md "Rule: stateless reachability challenge": each new connection answers its own
 * reachability PING). One client endpoint warms up with {@code warm} rxperf RPC calls (4 bytes each way) on one
 * connection, then opens {@code n} connections one after another and times each one's first and second call.
 * Prints the medians and their difference, µs. A measurement, not a test; run with the shaded rxperf jar:
 *
 * <pre>java -cp rx-perf/target/rxperf.jar scripts/bench/NewConnectionFirstCall.java HOST PORT [N=200] [WARM=2000]</pre>
 */
public final class NewConnectionFirstCall {
    private static final byte[] RPC = ByteBuffer.allocate(28).putInt(3).putInt(3).putInt(524288).putInt(524288)
            .putInt(4).putInt(4).putInt(0).array();

    public static void main(String[] args) throws Exception {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int warm = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
        try (RxEndpoint client = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getByName(args[0]).isLoopbackAddress()
                ? InetAddress.getLoopbackAddress() : InetAddress.getByName("0.0.0.0"), 0)).open()) {
            RxConnection first = client.connect(server, 147);
            for (int i = 0; i < warm; i++) {
                first.call(RPC);
            }
            long[] firstCall = new long[n];
            long[] secondCall = new long[n];
            for (int i = 0; i < n; i++) {
                RxConnection c = client.connect(server, 147);
                long t0 = System.nanoTime();
                c.call(RPC);
                long t1 = System.nanoTime();
                c.call(RPC);
                long t2 = System.nanoTime();
                firstCall[i] = t1 - t0;
                secondCall[i] = t2 - t1;
                c.close();
            }
            Arrays.sort(firstCall);
            Arrays.sort(secondCall);
            System.out.printf("%d new connections from a proven address: first call median %.1f us (p90 %.1f), "
                    + "second call median %.1f us (p90 %.1f); difference of medians %.1f us%n", n,
                    firstCall[n / 2] / 1e3, firstCall[n * 9 / 10] / 1e3, secondCall[n / 2] / 1e3,
                    secondCall[n * 9 / 10] / 1e3, (firstCall[n / 2] - secondCall[n / 2]) / 1e3);
        }
    }
}
