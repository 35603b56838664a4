// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rx4j.afs.bozo.BozoDispatcher;
import org.rx4j.afs.bozo.BozoKey;
import org.rx4j.afs.bozo.BozoKeyInfo;
import org.rx4j.afs.bozo.BozoListKeysResult;
import org.rx4j.afs.bozo.BozoServer;
import org.rx4j.afs.bozo.BzErrors;
import org.rx4j.config.DebugReplies;
import org.rx4j.config.RxConfig;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.CallerIdentity;
import org.rx4j.security.rxkad.KeyDirectory;
import org.rx4j.security.rxkad.KeyFiles;
import org.rx4j.security.rxkad.LocalAuth;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.RxkadServerSecurity;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.UserList;
import org.rx4j.wire.AbortCodes;

/**
 * The other direction (docs/interop.md, docs/security.md "How it is tested"): an rx4j server on rx-afs's BOZO
 * server stubs that requires rxkad with the cell's KeyFile and KeyFileExt ({@link KeyDirectory}), and Debian's
 * {@code bos -localauth} talking to it: {@code bos listusers} at clear and {@code bos listkeys} at crypt (bos asks
 * for crypt when keys are listed) print what they print against the cell's real bosserver, whose UserList and
 * KeyFile this test service serves. Debian's bos mints the "2b" ticket (kvno 213) from the KeyFileExt's rxkad_krb5
 * key. The handlers see the caller's identity, and while each call runs, Debian's {@code rxdebug -allconnections}
 * against the rx4j server lists the caller's connection at security index 2 and the expected level.
 *
 * <p>Skipped unless {@code -Drx4j.auth.server=ADDR} (the real bosserver, for the comparison) and
 * {@code -Drx4j.auth.client=ADDR} (this host; the rx4j server binds its port 7007, where bos connects) are given;
 * {@code rx4j.auth.serverdir} as in {@link RxkadClientInteropTest}.
 */
@Timeout(120)
class RxkadBozoServerInteropTest {
    private static String realServer;
    private static String host;
    private static Path serverDir;
    /** The cell's superusers, as the real bosserver reads them. */
    private static UserList userList;
    private static RxEndpoint endpoint;
    /** What each served call saw, by opcode name: the caller and Debian rxdebug's listing of its connection. */
    private static final Map<String, Seen> SEEN = new ConcurrentHashMap<>();

    /**
     * @param who the caller's identity
     * @param conns the caller's connections Debian's rxdebug listed during the call
     */
    private record Seen(CallerIdentity who, List<OpenAfsCommands.Conn> conns) {
    }

    @BeforeAll
    static void start() throws Exception {
        realServer = System.getProperty("rx4j.auth.server", "");
        assumeTrue(!realServer.isBlank(), "no authenticated cell given (-Drx4j.auth.server=10.99.0.1)");
        host = System.getProperty("rx4j.auth.client", "");
        assertFalse(host.isBlank(), "-Drx4j.auth.client=ADDR (this host, where bos finds rx4j's server) is required");
        serverDir = Path.of(System.getProperty("rx4j.auth.serverdir", "/etc/openafs/server"));
        userList = new UserList(serverDir);
        // Debian's rxdebug asks from this host's own address, not loopback: answer it as OpenAFS servers do.
        endpoint = RxEndpoint.builder().bind(new InetSocketAddress(InetAddress.getByName(host), 7007))
                .config(RxConfig.builder().debugReplies(DebugReplies.ALWAYS).build()).open();
        BozoServer served = (BozoServer) Proxy.newProxyInstance(BozoServer.class.getClassLoader(),
                new Class<?>[] {BozoServer.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "listSUsers" -> listSUsers((RxCall) args[0], (Integer) args[1]);
                    case "listKeys" -> listKeys((RxCall) args[0], (Integer) args[1]);
                    case "toString" -> "rx4j's test bosserver";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw RxException.local(AbortCodes.RX_INVALID_OPERATION,
                            method.getName() + " is not served by this test");
                });
        endpoint.registerService(BozoDispatcher.service(1,
                new RxkadServerSecurity(new KeyDirectory(serverDir), RxkadLevel.CLEAR), served));
    }

    @AfterAll
    static void stop() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    /** Records the caller and, while the call runs, Debian rxdebug's listing of the caller's connections. */
    private static void see(String what, RxCall call) throws Exception {
        List<OpenAfsCommands.Conn> conns = OpenAfsCommands.rxdebugConnections(host, 7007).stream()
                .filter(c -> c.port() == call.peer().getPort()).toList();
        SEEN.put(what, new Seen(call.identity().orElseThrow(), conns));
    }

    /** The cell's UserList, as the real bosserver lists it; 1 past its end, as bosserver ends the list. */
    private static String listSUsers(RxCall call, int index) throws Exception {
        if (index == 0) {
            see("ListSUsers", call);
        }
        List<String> users = userList.names();
        if (index < 0 || index >= users.size()) {
            throw RxException.local(1, "past the end of UserList");
        }
        return users.get(index);
    }

    /** The KeyFile's DES keys; the key bytes only to a crypt connection, as bosserver does. */
    private static BozoListKeysResult listKeys(RxCall call, int index) throws Exception {
        if (index == 0) {
            see("ListKeys", call);
        }
        List<ServerKey> keys = KeyFiles.readKeyFile(serverDir.resolve("KeyFile"));
        if (index < 0 || index >= keys.size()) {
            throw RxException.local(BzErrors.BZDOM, "no key at index " + index);
        }
        ServerKey k = keys.get(index);
        boolean crypt = call.identity().orElseThrow().level() == RxkadLevel.CRYPT.wire();
        int modified = (int) (Files.getLastModifiedTime(serverDir.resolve("KeyFile")).toMillis() / 1000);
        return new BozoListKeysResult(k.kvno(), new BozoKey(crypt ? k.key() : new byte[8]),
                new BozoKeyInfo(modified, 0, checksum(k.key()), 0));
    }

    /** The key check sum bos prints: the first 4 bytes of a zero block DES-encrypted under the key. */
    private static int checksum(byte[] desKey) throws GeneralSecurityException {
        Cipher des = Cipher.getInstance("DES/ECB/NoPadding");
        des.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(desKey, "DES"));
        byte[] block = des.doFinal(new byte[8]);
        return (block[0] & 0xff) << 24 | (block[1] & 0xff) << 16 | (block[2] & 0xff) << 8 | (block[3] & 0xff);
    }

    private static List<String> bos(String server, String... args) throws Exception {
        return OpenAfsCommands.bosLocalauth(server, args);
    }

    private static void assertCaller(String what, RxkadLevel level) {
        Seen seen = SEEN.get(what);
        assertNotNull(seen, what + " was not served");
        assertEquals(List.of(LocalAuth.SUPERUSER, "", "", 2, level.wire()), List.of(seen.who().principal(),
                seen.who().instance(), seen.who().cell(), seen.who().securityIndex(), seen.who().level()),
                "the handler's view of the -localauth caller");
        OpenAfsCommands.assertRxkadLevel(seen.conns(), host, 0, level.name().toLowerCase(Locale.ROOT));
    }

    @Test
    void bosListusersAtClearPrintsWhatTheRealBosserverPrints() throws Exception {
        assertEquals(bos(realServer, "listusers"), bos(host, "listusers"));
        assertCaller("ListSUsers", RxkadLevel.CLEAR);
    }

    @Test
    void bosListkeysAtCryptPrintsTheRealKeyAndChecksum() throws Exception {
        // -showkey prints the key bytes when the server sent them (it does only at crypt).
        List<String> real = bos(realServer, "listkeys", "-showkey");
        List<String> mine = bos(host, "listkeys", "-showkey");
        assertEquals(real.get(0), mine.get(0));
        assertEquals(real.get(real.size() - 1), mine.get(mine.size() - 1));
        assertEquals(bos(realServer, "listkeys").get(0), bos(host, "listkeys").get(0), "the key's checksum line");
        assertCaller("ListKeys", RxkadLevel.CRYPT);
    }
}
