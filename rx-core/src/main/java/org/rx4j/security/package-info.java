/**
 * Public SPI: Rx security classes ({@link org.rx4j.security.SecurityClass}; rxnull today, rxkad and rxgk later),
 * their per-connection state and the CHALLENGE/RESPONSE exchange (rx-wire-facts.md §7, §11).
 */
package org.rx4j.security;
