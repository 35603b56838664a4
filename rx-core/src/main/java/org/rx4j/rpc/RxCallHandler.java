package org.rx4j.rpc;

/**
 * Serves one incoming call of a registered service. Blocking handlers run on the endpoint's worker pool;
 * see {@link RxEndpoint#registerService}. The handler reads the request from {@link RxCall#input()},
 * writes the reply to {@link RxCall#output()}; returning closes the output (LAST_PACKET). Throwing
 * {@link RxException} aborts the call with its code; any other exception aborts it with
 * RX_INVALID_OPERATION (−2)... as rxgen servers do, applications should throw RxException with their code.
 */
@FunctionalInterface
public interface RxCallHandler {
    /**
     * @param call the server call
     * @throws Exception to abort the call (RxException: its code)
     */
    void handle(RxCall call) throws Exception;
}
