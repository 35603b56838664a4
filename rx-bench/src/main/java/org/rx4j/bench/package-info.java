// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * JMH microbenchmarks of rx4j (wire codec, engine receive and ACK paths, stats under load, connection-count growth, in-JVM loopback transfer, small calls, rxkad's packet protection) and the idle-connection heap probe. They run from the shaded benchmarks jar on the class
 * path, where the module boundary of {@code org.rx4j.core} does not apply: that is how they reach internals such as
 * the wire codec, which the module does not export.
 */
package org.rx4j.bench;
