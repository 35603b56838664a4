package org.rx4j.engine;

import java.util.function.BooleanSupplier;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityContext;
import org.rx4j.wire.PacketType;

/**
 * Whether a packet that reached a server connection from an address other than the connection's may move the
 * connection there (docs/robustness.md, "Rule: a server connection's address never moves on an unauthenticated
 * packet"). Epoch bit 31 lets a client's packets match from any address (rx-wire-facts.md §7), but with rxnull (and
 * rxkad clear) nothing proves who sent one: anyone who knows a connection's ids would take its replies, and could
 * answer a reachability PING at its own address as well, so validating the new path alone would not help. So such a
 * packet is processed where the connection is (its replies keep going to the connection's address, as in OpenAFS)
 * unless this policy says it may move it.
 *
 * <p>Only a DATA packet whose checksum the connection's security class verified under the session key (a class that
 * {@link SecurityClass#authenticatesPackets}; rxkad auth or crypt) may. The move is then RFC 9000's path validation
 * (sections 8.2 and 9): the new address must answer the reachability challenge first, nothing larger than what it
 * sent goes there before, and the connection then uses that address's own {@link Peer} (its own RTT, congestion and
 * path-MTU state), never the old path's.
 *
 * <p>Immutable; the class is asked at each packet, since rxkad knows its level only once the connection is
 * authenticated.
 */
final class AddressChangePolicy {
    /** A connection whose packets nothing authenticates (rxnull): no packet moves it. */
    static final AddressChangePolicy UNAUTHENTICATED = new AddressChangePolicy(() -> false);

    private final BooleanSupplier authenticatesPackets;

    private AddressChangePolicy(BooleanSupplier authenticatesPackets) {
        this.authenticatesPackets = authenticatesPackets;
    }

    /**
     * @param security the connection's security context
     * @return the policy that asks the context's class, at each packet, whether it authenticates packets
     */
    static AddressChangePolicy of(SecurityContext security) {
        SecurityClass c = security.securityClass();
        return new AddressChangePolicy(() -> c.authenticatesPackets(security));
    }

    /**
     * @param type the packet's type code; only DATA carries a security checksum (§1, §11)
     * @param checksumVerified true when the connection's security class accepted this packet
     *     ({@link SecurityClass#checkIncoming} returned 0)
     * @return true when the packet may start moving the connection to its source (the path validation above);
     *     false: it is processed where the connection is and nothing is sent to its source
     */
    boolean mayMove(int type, boolean checksumVerified) {
        return type == PacketType.DATA && checksumVerified && authenticatesPackets.getAsBoolean();
    }
}
