package org.rx4j.rpc;

/**
 * Names the procedures of the services an endpoint serves and calls, for interceptors and call logs
 * ({@link RxCallInfo#procName()}), e.g. from the opcode constants an rx-gen interface declares. Registered with
 * {@link RxEndpoint.Builder#procNames}; called on the event loop or the calling thread: must not block.
 */
@FunctionalInterface
public interface RxProcNames {
    /**
     * @param serviceId the call's service id, 1..65535
     * @param opcode the request's opcode (rxgen's first 4 bytes)
     * @return the procedure's name, or null when unknown
     */
    String name(int serviceId, int opcode);
}
