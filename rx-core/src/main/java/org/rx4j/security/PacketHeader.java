package org.rx4j.security;

/**
 * The fields of a received packet's 28-byte Rx header that a security class checks (rx-wire-facts.md §1), as the
 * security SPI's own value type: a security class needs no internal package. The engine copies them from the
 * decoded header before {@link SecurityClass#checkIncoming}.
 *
 * @param epoch the connection's epoch
 * @param cid the connection id with the channel in its low 2 bits
 * @param callNumber the call number on that channel
 * @param seq the DATA packet's sequence number (1-based)
 * @param serial the packet serial number
 * @param type the packet type (3 = DATA)
 * @param flags the header flags
 * @param userStatus the user-status byte
 * @param securityIndex the security class index
 * @param spare the spare/checksum field as received, 0..65535
 * @param serviceId the service id, 0..65535
 */
public record PacketHeader(int epoch, int cid, int callNumber, int seq, int serial, int type, int flags,
                           int userStatus, int securityIndex, int spare, int serviceId) {
    /** @return the channel, 0..3 (the low 2 bits of the cid) */
    public int channel() {
        return cid & 3;
    }
}
