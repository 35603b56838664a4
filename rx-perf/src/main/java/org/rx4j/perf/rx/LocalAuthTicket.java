package org.rx4j.perf.rx;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.List;
import org.rx4j.security.rxkad.KeyFiles;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadKdf;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.ServerKey;
import org.rx4j.security.rxkad.SessionKey;
import org.rx4j.security.rxkad.V4Ticket;

/**
 * A client's rxkad credentials minted from a server's KeyFile, as OpenAFS's {@code -localauth} does
 * (docs/security.md "Tickets"): a v4-style ticket for the superuser {@code afs} (empty instance and cell) with a
 * random session key, sealed with the newest DES key (highest kvno) and valid from now for 30 days. Anyone who can
 * read the KeyFile can do this; it is what rxperf's {@code --keyfile} uses on the client side.
 */
final class LocalAuthTicket {
    /** OpenAFS's longest ticket life, seconds (MAXKTCTICKETLIFETIME). */
    private static final long LIFETIME_SECONDS = 30L * 24 * 3600;

    private LocalAuthTicket() {
    }

    /**
     * @param keyFile the AFS KeyFile
     * @param level the connections' level
     * @return the client security class carrying the minted ticket
     * @throws IOException if the file cannot be read, is malformed or holds no DES key
     */
    static RxkadClientSecurity mint(Path keyFile, RxkadLevel level) throws IOException {
        List<ServerKey> keys = KeyFiles.readKeyFile(keyFile);
        ServerKey newest = keys.stream().filter(k -> k.type() == ServerKey.RXKAD && k.key().length == 8)
                .max(Comparator.comparingInt(ServerKey::kvno))
                .orElseThrow(() -> new IOException(keyFile + " holds no DES key"));
        SecureRandom random = new SecureRandom();
        long session = RxkadKdf.withOddParity(random.nextLong());
        long now = System.currentTimeMillis() / 1000;
        long serverKey = ByteBuffer.wrap(newest.key()).getLong();
        byte[] ticket = new V4Ticket("afs", "", "", 0, session, now, now + LIFETIME_SECONDS, "afs", "")
                .seal(serverKey);
        return new RxkadClientSecurity(level, new SessionKey(session), newest.kvno(), ticket);
    }
}
