/**
 * Congestion control for the sans-I/O engine: the {@link org.rx4j.engine.cc.CongestionController} interface
 * with NewReno and fixed-window implementations, and the jumbogram sizer. Windows are counted in packets.
 * Pure state, no clock, no threads, no Netty. See rx-wire-facts.md §4 and §8.
 */
package org.rx4j.engine.cc;
