/**
 * The {@code rx-gen:generate} Maven goal: generates Java sources from {@code src/main/xg} in the generate-sources phase.
 */
package org.rx4j.gen.maven;
