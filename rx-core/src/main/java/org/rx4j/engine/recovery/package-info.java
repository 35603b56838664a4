/**
 * Loss recovery for the sans-I/O engine: the RTT/RTO estimator. Pure state, no clock, no threads,
 * no Netty; every time is a {@code long} in nanoseconds passed in by the caller.
 */
package org.rx4j.engine.recovery;
