// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The Java 17 generator: records, unions and enums with XDR encode/decode on rx-core's XDR runtime, clients, blocking and async server interfaces and their dispatchers (docs/rxgen.md, type mapping and "Async servers").
 */
package org.rx4j.gen.java;
