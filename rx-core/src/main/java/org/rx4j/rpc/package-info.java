/**
 * Public API: endpoints ({@link org.rx4j.rpc.RxEndpoint}), connections, calls as streams or whole messages,
 * rxgen-style services, errors ({@link org.rx4j.rpc.RxException}, {@link org.rx4j.rpc.RxCodes}) and immutable
 * statistics snapshots. See docs/embedding.md.
 */
package org.rx4j.rpc;
