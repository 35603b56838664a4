// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/** The client run: threads × calls over connections (4 threads per connection), timing and latency recording. */
package org.rx4j.perf.client;
