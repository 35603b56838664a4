/**
 * The com_err {@code .et} error-table reader: table name to code base, codes, names and messages (docs/rxgen.md).
 */
package org.rx4j.gen.et;
