// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import org.rx4j.afs.files.AfsFileSystem;
import org.rx4j.afs.files.AfsStat;
import org.rx4j.security.RxNullSecurityClass;

/**
 * scripts/bench/afs-files.sh's rx4j side of the short-call case, run from source on afsq.jar's classpath:
 *
 * <pre>
 * java -cp afsq.jar AfsFilesBench.java make CELL VLADDR DIR COUNT BYTES   makes DIR/fNNNN, prints their fids
 * java -cp afsq.jar AfsFilesBench.java read CELL VLADDR DIR COUNT         stats and reads each file, twice
 * </pre>
 *
 * <p>{@code read} prints "cold S" (the first pass: a new JVM, the first status and data calls) and "warm S" (the
 * second pass: statuses served from the callback cache, data fetched again), wall seconds each.
 */
public final class AfsFilesBench {
    private AfsFilesBench() {
    }

    /**
     * @param a the command line above
     * @throws Exception any failure ends the run
     */
    public static void main(String[] a) throws Exception {
        try (AfsFileSystem afs = AfsFileSystem.open(a[1], List.of(new InetSocketAddress(a[2], 7003)),
                RxNullSecurityClass.INSTANCE)) {
            String dir = a[3];
            int count = Integer.parseInt(a[4]);
            if (a[0].equals("make")) {
                byte[] data = new byte[Integer.parseInt(a[5])];
                new java.util.Random(1).nextBytes(data);
                afs.mkdir(dir);
                for (int i = 0; i < count; i++) {
                    AfsStat st = afs.write(dir + String.format("/f%04d", i), data, AfsFileSystem.WriteMode.CREATE_NEW);
                    System.out.println(st.fidString());
                }
                return;
            }
            for (String pass : new String[] {"cold", "warm"}) {
                long t0 = System.nanoTime();
                long bytes = 0;
                for (int i = 0; i < count; i++) {
                    String p = dir + String.format("/f%04d", i);
                    AfsStat st = afs.stat(p);
                    try (InputStream in = afs.read(p)) {
                        bytes += in.readAllBytes().length;
                    }
                    if (st.length() < 0) {
                        throw new IllegalStateException(p);
                    }
                }
                System.out.printf("%s %.3f %d%n", pass, (System.nanoTime() - t0) / 1e9, bytes);
            }
        }
    }
}
