// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/*
 * udpfloor: the machine's UDP floor for scripts/bench.sh, two processes over plain UDP sockets.
 *
 *   udpfloor server [--bind ADDR] PORT
 *       Echoes every datagram whose first byte is 'P' (ping); counts the bytes of 'B' (blast)
 *       datagrams; answers a 'Q' (query) with "<datagrams> <bytes>" received since the last 'R' (reset).
 *   udpfloor pingpong HOST PORT COUNT
 *       COUNT round trips of a 32-byte datagram, one at a time; prints
 *       "pingpong: N round trips, min X us, p50 X us, p99 X us, max X us".
 *   udpfloor blast HOST PORT SECONDS SIZE
 *       Sends SIZE-byte datagrams as fast as send() allows for SECONDS, then asks the server what
 *       arrived; prints "blast: sent N datagrams of SIZE bytes in S s; received N (X Mbit/s, Y datagrams/s)".
 *
 * Ours, written for rx4j's benchmarks (docs/benchmarks.md); plain POSIX sockets. Build:
 * gcc -O2 udpfloor.c -o udpfloor. The rates are received payload bytes (UDP payload, decimal Mbit/s).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { MAX_DGRAM = 65507, PING_SIZE = 32, SOCKET_BUFFER = 4 * 1024 * 1024 };

static void
die(const char *what)
{
    perror(what);
    exit(1);
}

static long long
now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct sockaddr_in
address(const char *host, int port)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)port);
    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
        fprintf(stderr, "udpfloor: %s is not an IPv4 address\n", host);
        exit(2);
    }
    return sa;
}

/* A UDP socket with large buffers (as large as net.core.[rw]mem_max allows). */
static int
udp_socket(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0), size = SOCKET_BUFFER;
    if (fd < 0)
        die("socket");
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
    return fd;
}

static int
run_server(const char *bind_host, int port)
{
    static char buf[MAX_DGRAM];
    struct sockaddr_in sa = address(bind_host, port), from;
    socklen_t len;
    long long datagrams = 0, bytes = 0;
    int fd = udp_socket();

    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
        die("bind");
    for (;;) {
        ssize_t n;
        len = sizeof(from);
        n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &len);
        if (n <= 0)
            continue;
        switch (buf[0]) {
        case 'P':
            sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&from, len);
            break;
        case 'B':
            datagrams++;
            bytes += n;
            break;
        case 'R':
            datagrams = bytes = 0;
            sendto(fd, "R", 1, 0, (struct sockaddr *)&from, len);
            break;
        case 'Q': {
            char reply[64];
            int r = snprintf(reply, sizeof(reply), "%lld %lld", datagrams, bytes);
            sendto(fd, reply, (size_t)r, 0, (struct sockaddr *)&from, len);
            break;
        }
        }
    }
    return 0;    /* not reached */
}

static int
compare_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* A connected client socket with a 1 s receive timeout. */
static int
client_socket(const char *host, int port)
{
    struct sockaddr_in sa = address(host, port);
    struct timeval tv = { 1, 0 };
    int fd = udp_socket();
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
        die("connect");
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    return fd;
}

/* Sends a one-byte control datagram and waits for the answer (retries: UDP may drop). */
static ssize_t
control(int fd, char what, char *reply, size_t size)
{
    int tries;
    for (tries = 0; tries < 5; tries++) {
        ssize_t n;
        send(fd, &what, 1, 0);
        n = recv(fd, reply, size - 1, 0);
        if (n > 0) {
            reply[n] = '\0';
            return n;
        }
    }
    fprintf(stderr, "udpfloor: no answer from the server\n");
    exit(1);
}

static int
run_pingpong(const char *host, int port, int count)
{
    char buf[PING_SIZE];
    long long *rtt = malloc(sizeof(long long) * (size_t)count);
    int fd = client_socket(host, port), i, done = 0;

    if (rtt == NULL)
        die("malloc");
    memset(buf, 'P', sizeof(buf));
    for (i = 0; i < count + 100; i++) {     /* the first 100 warm the path up and are not counted */
        long long begin = now_ns();
        if (send(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
            die("send");
        if (recv(fd, buf, sizeof(buf), 0) <= 0)
            continue;                       /* lost: not counted */
        if (i >= 100)
            rtt[done++] = now_ns() - begin;
    }
    if (done == 0) {
        fprintf(stderr, "udpfloor: no round trip completed\n");
        return 1;
    }
    qsort(rtt, (size_t)done, sizeof(long long), compare_ll);
    printf("pingpong: %d round trips, min %.1f us, p50 %.1f us, p99 %.1f us, max %.1f us\n", done,
           rtt[0] / 1e3, rtt[done / 2] / 1e3, rtt[(long)done * 99 / 100] / 1e3, rtt[done - 1] / 1e3);
    return 0;
}

static int
run_blast(const char *host, int port, double seconds, int size)
{
    static char buf[MAX_DGRAM];
    char reply[64];
    long long sent = 0, got_dgrams, got_bytes, begin, end;
    int fd = client_socket(host, port);

    if (size < 1 || size > MAX_DGRAM) {
        fprintf(stderr, "udpfloor: size not in 1..%d\n", MAX_DGRAM);
        return 2;
    }
    memset(buf, 'B', sizeof(buf));
    control(fd, 'R', reply, sizeof(reply));
    begin = now_ns();
    end = begin + (long long)(seconds * 1e9);
    while (now_ns() < end) {
        int k;
        for (k = 0; k < 64; k++)
            if (send(fd, buf, (size_t)size, 0) == size)
                sent++;
    }
    end = now_ns();
    usleep(200000);                          /* let the server drain its socket */
    control(fd, 'Q', reply, sizeof(reply));
    if (sscanf(reply, "%lld %lld", &got_dgrams, &got_bytes) != 2) {
        fprintf(stderr, "udpfloor: bad answer '%s'\n", reply);
        return 1;
    }
    printf("blast: sent %lld datagrams of %d bytes in %.3f s; received %lld (%.1f Mbit/s, %.0f datagrams/s)\n",
           sent, size, (end - begin) / 1e9, got_dgrams, got_bytes * 8 / ((end - begin) / 1e9) / 1e6,
           got_dgrams / ((end - begin) / 1e9));
    return 0;
}

int
main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "server") == 0)
        return run_server("127.0.0.1", atoi(argv[2]));
    if (argc == 5 && strcmp(argv[1], "server") == 0 && strcmp(argv[2], "--bind") == 0)
        return run_server(argv[3], atoi(argv[4]));
    if (argc == 5 && strcmp(argv[1], "pingpong") == 0)
        return run_pingpong(argv[2], atoi(argv[3]), atoi(argv[4]));
    if (argc == 6 && strcmp(argv[1], "blast") == 0)
        return run_blast(argv[2], atoi(argv[3]), atof(argv[4]), atoi(argv[5]));
    fprintf(stderr, "usage: udpfloor server [--bind ADDR] PORT | pingpong HOST PORT COUNT"
            " | blast HOST PORT SECONDS SIZE\n");
    return 2;
}
