package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rx4j.security.ConnectionRole;
import org.rx4j.security.PacketHeader;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityContext;
import org.rx4j.wire.PacketType;

/**
 * Only a DATA packet whose checksum a packet-authenticating security class verified may move a server connection
 * (docs/robustness.md, "Rule: a server connection's address never moves on an unauthenticated packet"); rxnull's
 * packets never do.
 */
class AddressChangePolicyTest {
    @Test
    void noPacketMovesAnUnauthenticatedConnection() {
        for (boolean verified : new boolean[] {false, true}) {
            assertFalse(AddressChangePolicy.UNAUTHENTICATED.mayMove(PacketType.DATA, verified));
            assertFalse(AddressChangePolicy.of(context(RxNullSecurityClass.INSTANCE)).mayMove(PacketType.DATA,
                    verified), "rxnull accepts every packet, which proves nothing");
        }
    }

    @Test
    void onlyAVerifiedDataPacketMovesAConnectionWhoseClassAuthenticatesPackets() {
        Keyed keyed = new Keyed();
        AddressChangePolicy policy = AddressChangePolicy.of(context(keyed));
        assertFalse(policy.mayMove(PacketType.DATA, true), "asked at each packet: not before the level is known");
        keyed.authenticates = true;
        assertTrue(policy.mayMove(PacketType.DATA, true));
        assertFalse(policy.mayMove(PacketType.DATA, false), "a packet that failed its check");
        assertFalse(policy.mayMove(PacketType.ACK, true), "only DATA carries a checksum");
        assertFalse(policy.mayMove(PacketType.ABORT, true));
    }

    private static SecurityContext context(SecurityClass c) {
        return new SecurityContext(c, ConnectionRole.SERVER, 0x81234560, 0x40, 147, ch -> 0);
    }

    /** A stand-in for a class with a keyed checksum (rxkad auth or crypt), whose level is set once authenticated. */
    private static final class Keyed implements SecurityClass {
        boolean authenticates;

        @Override
        public boolean authenticatesPackets(SecurityContext ctx) {
            return authenticates;
        }

        @Override
        public int securityIndex() {
            return 2;
        }

        @Override
        public String name() {
            return "keyed";
        }

        @Override
        public int headerSize(SecurityContext ctx) {
            return 0;
        }

        @Override
        public int trailerSize(SecurityContext ctx) {
            return 0;
        }

        @Override
        public int prepareOutgoing(SecurityContext ctx, int channel, int callNumber, int seq, ByteBuf packet) {
            return 0;
        }

        @Override
        public int checkIncoming(SecurityContext ctx, PacketHeader header, ByteBuf packet) {
            return 0;
        }

        @Override
        public boolean isAuthenticated(SecurityContext ctx) {
            return true;
        }

        @Override
        public Optional<byte[]> challengeBody(SecurityContext ctx) {
            return Optional.empty();
        }

        @Override
        public byte[] responseBody(SecurityContext ctx, byte[] challengeBody) {
            return new byte[0];
        }

        @Override
        public int checkResponse(SecurityContext ctx, byte[] responseBody) {
            return 0;
        }
    }
}
