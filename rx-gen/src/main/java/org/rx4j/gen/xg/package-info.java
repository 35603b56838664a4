/**
 * The {@code .xg} language: lexer, recursive-descent parser and the syntax tree of constants, types and procs (docs/rxgen.md).
 */
package org.rx4j.gen.xg;
