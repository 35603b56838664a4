// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.rx4j.afs.bozo.BozoDispatcher;
import org.rx4j.afs.bozo.BozoServer;
import org.rx4j.afs.bozo.BzErrors;
import org.rx4j.config.RxConfig;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.rxkad.KeyDirectory;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.wire.AbortCodes;

/**
 * A minimal rx4j BOZO server for timing Debian's {@code bos listhosts} (scripts/interop/bos-timing.sh): GetCellName
 * and GetCellHost from the arguments, on service 1 with rxnull (for {@code -noauth}) and with rxkad at clear from a
 * KeyFile directory (for {@code -localauth}). JDK and rx4j only; run with the afsq jar on the class path.
 *
 * <pre>java -cp rx-afs-tools/target/afsq.jar BosTimingServer BIND_ADDR PORT KEYDIR CHECK_REACH CELL HOST...</pre>
 */
public final class BosTimingServer {
    private BosTimingServer() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress bind = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        Path keys = Path.of(args[2]);
        boolean checkReach = Boolean.parseBoolean(args[3]);
        String cell = args[4];
        String[] hosts = java.util.Arrays.copyOfRange(args, 5, args.length);
        BozoServer served = (BozoServer) Proxy.newProxyInstance(BozoServer.class.getClassLoader(),
                new Class<?>[] {BozoServer.class}, (proxy, method, a) -> switch (method.getName()) {
                    case "getCellName" -> cell;
                    case "getCellHost" -> {
                        int i = (Integer) a[1];
                        if (i < 0 || i >= hosts.length) {
                            throw RxException.local(BzErrors.BZDOM, "no host " + i);
                        }
                        yield hosts[i];
                    }
                    case "toString" -> "bos timing server";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == a[0];
                    default -> throw RxException.local(AbortCodes.RX_INVALID_OPERATION, method.getName());
                });
        RxEndpoint endpoint = RxEndpoint.builder().bind(bind)
                .config(RxConfig.builder().checkReach(checkReach).build()).open();
        endpoint.registerService(BozoDispatcher.service(1, RxNullSecurityClass.INSTANCE, served));
        endpoint.registerService(BozoDispatcher.service(1,
                new RxkadServerSecurity(new KeyDirectory(keys), RxkadLevel.CLEAR), served));
        System.out.println("ready " + bind);
        System.out.flush();
        Thread.currentThread().join();
    }
}
