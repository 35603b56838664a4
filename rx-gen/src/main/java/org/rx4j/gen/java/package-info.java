/**
 * The Java 17 generator: records, unions and enums with XDR encode/decode on rx-core's XDR runtime, clients, server interfaces and dispatchers (docs/rxgen.md, type mapping).
 */
package org.rx4j.gen.java;
