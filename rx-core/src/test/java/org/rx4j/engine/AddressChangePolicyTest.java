package org.rx4j.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rx4j.security.ConnectionRole;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.security.SecurityClass;
import org.rx4j.security.SecurityContext;
import org.rx4j.security.ToyChecksumSecurityClass;
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
            assertFalse(AddressChangePolicy.of(context(RxNullSecurityClass.INSTANCE, ConnectionRole.SERVER))
                    .mayMove(PacketType.DATA, verified), "rxnull accepts every packet, which proves nothing");
        }
    }

    @Test
    void onlyAVerifiedDataPacketMovesAConnectionWhoseClassAuthenticatesPackets() throws Exception {
        // A keyed checksum class (rxkad-shaped): its packets prove their sender once the session key is agreed.
        ToyChecksumSecurityClass serverClass = new ToyChecksumSecurityClass(7, new Random(1));
        ToyChecksumSecurityClass clientClass = new ToyChecksumSecurityClass(7, new Random(2));
        SecurityContext server = context(serverClass, ConnectionRole.SERVER);
        SecurityContext client = context(clientClass, ConnectionRole.CLIENT);
        AddressChangePolicy policy = AddressChangePolicy.of(server);
        assertFalse(policy.mayMove(PacketType.DATA, true), "asked at each packet: not before the key is agreed");

        byte[] challenge = serverClass.challengeBody(server).orElseThrow();
        assertEquals(0, serverClass.checkResponse(server, clientClass.responseBody(client, challenge)));
        assertTrue(policy.mayMove(PacketType.DATA, true));
        assertFalse(policy.mayMove(PacketType.DATA, false), "a packet that failed its check");
        assertFalse(policy.mayMove(PacketType.ACK, true), "only DATA carries a checksum");
        assertFalse(policy.mayMove(PacketType.ABORT, true));
    }

    private static SecurityContext context(SecurityClass c, ConnectionRole role) {
        SecurityContext ctx = new SecurityContext(c, role, 0x81234560, 0x40, 147, ch -> 0);
        c.newConnection(ctx);
        return ctx;
    }
}
