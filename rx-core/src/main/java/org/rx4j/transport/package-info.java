/**
 * Internal: the Netty UDP transport: one socket and event loop per endpoint, datagrams in and out of the engine,
 * the event-loop timer and the transport counters (design.md "transport"). Not exported by the module.
 */
package org.rx4j.transport;
