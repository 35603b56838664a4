// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/**
 * The relay's command line (picocli): {@code scripts/relay --listen A --target B [impairments]}; exit 2 with a one-line message on a bad flag.
 */
package org.rx4j.relay.cli;
