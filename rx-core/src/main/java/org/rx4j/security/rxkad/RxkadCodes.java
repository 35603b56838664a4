package org.rx4j.security.rxkad;

/**
 * rxkad's abort codes (the RXK error table, base 19270400), the codes an OpenAFS peer sends or expects in an ABORT
 * when rxkad refuses a connection (docs/security.md "Errors").
 */
public final class RxkadCodes {
    /** Security module state is inconsistent. */
    public static final int RXKADINCONSISTENCY = 19270400;
    /** A CHALLENGE or RESPONSE is shorter than its format. */
    public static final int RXKADPACKETSHORT = 19270401;
    /** Level negotiation failed: the peer's level is below the minimum or not a level. */
    public static final int RXKADLEVELFAIL = 19270402;
    /** The ticket is shorter than 32 or longer than 12,000 bytes. */
    public static final int RXKADTICKETLEN = 19270403;
    /** The RESPONSE answers another CHALLENGE (wrong nonce): a replay. */
    public static final int RXKADOUTOFSEQUENCE = 19270404;
    /** The caller is not authorized. */
    public static final int RXKADNOAUTH = 19270405;
    /** The key is unusable (bad parity or weak). */
    public static final int RXKADBADKEY = 19270406;
    /** The ticket does not decode. */
    public static final int RXKADBADTICKET = 19270407;
    /** The ticket names a key version the server does not have. */
    public static final int RXKADUNKNOWNKEY = 19270408;
    /** The ticket or the connection's authentication has expired. */
    public static final int RXKADEXPIRED = 19270409;
    /** Sealed data is inconsistent: a checksum, the sealed header word or the RESPONSE's endpoint mismatches. */
    public static final int RXKADSEALEDINCON = 19270410;
    /** The sealed user-data length is larger than the packet. */
    public static final int RXKADDATALEN = 19270411;
    /** The caller may not use encrypted connections. */
    public static final int RXKADILLEGALLEVEL = 19270412;

    private RxkadCodes() {
    }

    /**
     * @param code an abort code
     * @return the rxkad name of {@code code} (e.g. {@code "RXKADSEALEDINCON"}), or null if it is not an rxkad code
     */
    public static String name(int code) {
        return switch (code) {
            case RXKADINCONSISTENCY -> "RXKADINCONSISTENCY";
            case RXKADPACKETSHORT -> "RXKADPACKETSHORT";
            case RXKADLEVELFAIL -> "RXKADLEVELFAIL";
            case RXKADTICKETLEN -> "RXKADTICKETLEN";
            case RXKADOUTOFSEQUENCE -> "RXKADOUTOFSEQUENCE";
            case RXKADNOAUTH -> "RXKADNOAUTH";
            case RXKADBADKEY -> "RXKADBADKEY";
            case RXKADBADTICKET -> "RXKADBADTICKET";
            case RXKADUNKNOWNKEY -> "RXKADUNKNOWNKEY";
            case RXKADEXPIRED -> "RXKADEXPIRED";
            case RXKADSEALEDINCON -> "RXKADSEALEDINCON";
            case RXKADDATALEN -> "RXKADDATALEN";
            case RXKADILLEGALLEVEL -> "RXKADILLEGALLEVEL";
            default -> null;
        };
    }
}
