// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * Public API: XDR (RFC 4506) encoding over a call's streams, as rxgen-generated code uses it; every length is
 * checked against its declared maximum before anything is allocated.
 */
package org.rx4j.rpc.xdr;
