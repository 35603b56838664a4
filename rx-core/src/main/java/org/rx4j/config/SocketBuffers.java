package org.rx4j.config;

/**
 * The UDP socket buffers the endpoint asks the kernel for (docs/transport.md; docs/robustness.md "Flood"). What is
 * requested when nothing is set follows from the windows and packet size: {@link RxConfig#effectiveUdpBufferBytes()}
 * and {@link RxConfig#effectiveReceiveBufferBytes()}.
 *
 * @param udpBufferBytes UDP socket send and receive buffer requested, bytes, &gt;= 0; 0 = send sized from the windows,
 *     receive at least 4 MiB ({@link RxConfig#DEFAULT_MIN_RECEIVE_BUFFER}) (default)
 */
public record SocketBuffers(int udpBufferBytes) {
    /** Nothing set: both buffers sized by the endpoint. */
    public static final SocketBuffers DEFAULTS = new SocketBuffers(0);

    /**
     * Checks the range listed with the component.
     *
     * @throws IllegalArgumentException if udpBufferBytes is negative
     */
    public SocketBuffers {
        SettingCheck.range("udpBufferBytes", udpBufferBytes, 0, Integer.MAX_VALUE);
    }
}
