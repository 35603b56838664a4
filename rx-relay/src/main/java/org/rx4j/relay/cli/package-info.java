/**
 * The relay's command line (picocli): {@code scripts/relay --listen A --target B [impairments]}; exit 2 with a one-line message on a bad flag.
 */
package org.rx4j.relay.cli;
