// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.packet;

/**
 * Which end of an Rx connection this side is (rx-wire-facts.md §7): the client starts calls and sets
 * CLIENT_INITIATED on what it sends; the server answers them and, for authenticating security classes,
 * sends the CHALLENGE.
 */
public enum ConnectionRole {
    /** This side created the connection and makes calls on it. */
    CLIENT,
    /** This side accepted the connection for a registered service. */
    SERVER
}
