// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import org.rx4j.wire.AbortCodes;

/**
 * Which end of a call an XDR stream belongs to. It picks the rxgen abort code a marshal or unmarshal
 * failure raises, as rxgen-generated stubs do (rx-wire-facts.md §6): the client marshals arguments and
 * unmarshals results, the server unmarshals arguments and marshals results.
 */
public enum XdrSide {
    /** The calling side: marshal failure -450 (RXGEN_CC_MARSHAL), unmarshal failure -451 (RXGEN_CC_UNMARSHAL). */
    CLIENT(AbortCodes.RXGEN_CC_MARSHAL, AbortCodes.RXGEN_CC_UNMARSHAL),
    /** The serving side: marshal failure -452 (RXGEN_SS_MARSHAL), unmarshal failure -453 (RXGEN_SS_UNMARSHAL). */
    SERVER(AbortCodes.RXGEN_SS_MARSHAL, AbortCodes.RXGEN_SS_UNMARSHAL);

    private final int marshalCode;
    private final int unmarshalCode;

    XdrSide(int marshalCode, int unmarshalCode) {
        this.marshalCode = marshalCode;
        this.unmarshalCode = unmarshalCode;
    }

    /** @return the abort code for a value this side cannot encode (-450 client, -452 server) */
    public int marshalCode() {
        return marshalCode;
    }

    /** @return the abort code for bytes this side cannot decode (-451 client, -453 server) */
    public int unmarshalCode() {
        return unmarshalCode;
    }
}
