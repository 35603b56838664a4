/**
 * rx-gen: rxgen for Java. The entry points that turn an rxgen {@code .xg} interface file (and com_err {@code .et} tables) into Java 17 sources; see docs/rxgen.md.
 */
package org.rx4j.gen;
