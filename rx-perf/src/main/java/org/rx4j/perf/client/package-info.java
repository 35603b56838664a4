/** The client run: threads × calls over connections (4 threads per connection), timing and latency recording. */
package org.rx4j.perf.client;
