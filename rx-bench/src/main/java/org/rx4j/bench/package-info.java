/**
 * JMH microbenchmarks of rx4j (so far the wire codec). They run from the shaded benchmarks jar on the class
 * path, where the module boundary of {@code org.rx4j.core} does not apply: that is how they reach internals such as
 * the wire codec, which the module does not export.
 */
package org.rx4j.bench;
