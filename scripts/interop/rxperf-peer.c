// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/*
 * rxperf-peer: an rxperf-protocol client and server for interop tests of rx4j.
 *
 * Written for rx4j against the exported API of Debian's OpenAFS 1.8 libafsrpc
 * (the pthread Rx library). It speaks the rxperf protocol as described in
 * /work/shared/docs/rx-wire-facts.md section 10: service 147, default UDP port
 * 7009, a 16-byte parameter block (version 3, command, read chunk, write chunk;
 * XDR big-endian int32s), commands SEND=0, RECV=1, RPC=3 and the 4-byte
 * completion cookie 0x00004711. FILE is not supported.
 *
 * Beyond OpenAFS rxperf it can check the payload: the sender always sends the
 * pattern "byte at payload offset i is i mod 251" (offset 0 is the first byte
 * after the rxperf header fields; it restarts for every call and direction);
 * with --verify the receiver checks it (client: message + exit 1; server:
 * message on stderr + call abort with code PEER_VERIFY_ABORT). --corrupt-at N
 * flips sent payload byte N of every call, so the harness can show that
 * --verify really fails. Both modes bind 127.0.0.1 unless --bind says otherwise.
 *
 * Only functions and data exported by libafsrpc.so are used: rx_ReadProc32,
 * rx_WriteProc32, rx_ReadvProc and rx_EnableHotThread are only in the static
 * archive, so 32-bit fields go through rx_Read/rx_Write and -V/-H are absent.
 *
 * For benchmarks (scripts/bench.sh) the client also has rx4j rxperf's --time
 * SECONDS and --omit SECONDS (iperf3's meaning: run calls for a duration, leave
 * the first seconds out; a call counts when it ends at or after the omit
 * boundary; the result line's times and bytes are what was counted) and --cpu,
 * which prints the process CPU line of rx4j's rxperf -D
 * ("CPU (process user+sys):\t%.3f s, %.3f s/GiB, %.1f usec/call", getrusage
 * over the measured window).
 *
 * --security none|clear|auth|crypt with --keyfile PATH has rx4j rxperf's meaning
 * (docs/rxperf.md "Security"): none is rxnull; otherwise the server offers only
 * rxkad (security index 2) with the given level as the least it accepts, taking
 * the server key of each kvno from the AFS KeyFile, and the client runs at that
 * level with a ticket it mints itself from the KeyFile's newest DES key, the
 * way -localauth does: for "afs" with empty instance and cell, start 0, no end,
 * a random session key. The server names each connection's security class and
 * rxkad level on stderr at its first call, so a harness can prove the level.
 *
 * Build: scripts/interop/build-peer.sh (gcc -O2 rxperf-peer.c -lafsrpc -lpthread)
 */

#include <afs/param.h>
#include <rx/rx.h>
#include <rx/rx_null.h>
#include <rx/rxkad.h>
#include <rx/rx_globals.h>

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum {
    PERF_SERVICE_ID = 147,        /* rx-wire-facts.md section 10 */
    PERF_DEFAULT_PORT = 7009,
    PERF_VERSION = 3,
    PERF_CMD_SEND = 0,
    PERF_CMD_RECV = 1,
    PERF_CMD_RPC = 3,
    PERF_COOKIE = 0x00004711,
    PERF_CHUNK_MAX = 524288,      /* largest read/write chunk a server accepts (bytes) */
    PERF_MAX_THREADS = 128,
    PATTERN_PERIOD = 251,         /* prime, so the pattern never lines up with packet sizes */
    PEER_VERIFY_ABORT = 25100     /* our abort code for a payload mismatch (not OpenAFS's) */
};

/* Pattern bytes: pattern[k] = k mod 251, long enough for a chunk at any phase. */
static unsigned char pattern[PERF_CHUNK_MAX + PATTERN_PERIOD];

static int verify_payload;        /* --verify */
static long corrupt_offset = -1;  /* --corrupt-at N: flip payload byte N when sending (harness self-test) */
static afs_uint32 bind_addr;      /* --bind ADDR, network order; default 127.0.0.1 */
static int default_read_chunk = PERF_CHUNK_MAX;   /* -r, bytes */
static int default_write_chunk = PERF_CHUNK_MAX;  /* -w, bytes */

/* --time/--omit: the run's schedule. run_time_us 0 means a counted (-T) run. */
static long long run_time_us;     /* --time, µs */
static long long run_omit_us;     /* --omit, µs */
static long long run_start_us;    /* set before the threads start */
static int report_cpu;            /* --cpu */
static int security_level = -1;   /* --security: -1 none (rxnull), else rxkad_clear/auth/crypt */
static const char *keyfile_path;  /* --keyfile */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rx_connection *seen_conns[64];   /* server: connections already named on stderr */
static int seen_count;
static pthread_mutex_t window_lock = PTHREAD_MUTEX_INITIALIZER;
static long long counted_calls;   /* calls ending at or after start + omit; under window_lock */
static long long window_cpu_us = -1;  /* process CPU at the first counted call's end; under window_lock */

/* Common Rx tuning knobs, applied in the order OpenAFS rxperf applies them. */
struct rx_tuning {
    int nojumbo;      /* -j */
    int maxmtu;       /* -m, bytes, 0 = library default */
    int maxwindow;    /* -W, packets, 0 = library default (32) */
    int udpbuf_kib;   /* -u, KiB */
    int minpeertimeout; /* -P, ms */
    int nostats;      /* -N */
};

static void
fill_pattern(void)
{
    size_t k;
    for (k = 0; k < sizeof(pattern); k++)
        pattern[k] = (unsigned char)(k % PATTERN_PERIOD);
}

static void
die(const char *fmt, const char *arg)
{
    fprintf(stderr, "rxperf-peer: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

/* Parses a whole decimal/hex/octal number or exits with a message naming the option. */
static long
parse_number(const char *text, const char *what)
{
    char *end;
    long value;

    errno = 0;
    value = strtol(text, &end, 0);
    if (errno != 0 || end == text || *end != '\0')
        die("can't resolve %s", what);
    return value;
}

static int
read_int32(struct rx_call *call, afs_int32 *value)
{
    afs_int32 wire;
    if (rx_Read(call, (char *)&wire, 4) != 4)
        return -1;
    *value = (afs_int32)ntohl((afs_uint32)wire);
    return 0;
}

static int
write_int32(struct rx_call *call, afs_int32 value)
{
    afs_int32 wire = (afs_int32)htonl((afs_uint32)value);
    return rx_Write(call, (char *)&wire, 4) == 4 ? 0 : -1;
}

/*
 * Sends nbytes of the pattern in chunks of at most chunk bytes; 0 on success.
 * scratch (chunk bytes) is only used for --corrupt-at, to damage one byte.
 */
static int
send_payload(struct rx_call *call, afs_int32 nbytes, int chunk, unsigned char *scratch)
{
    afs_int32 offset = 0;

    while (offset < nbytes) {
        int size = nbytes - offset < chunk ? nbytes - offset : chunk;
        const unsigned char *data = pattern + offset % PATTERN_PERIOD;
        if (corrupt_offset >= offset && corrupt_offset < (long)offset + size) {
            memcpy(scratch, data, (size_t)size);
            scratch[corrupt_offset - offset] ^= 0xff;
            data = scratch;
        }
        if (rx_Write(call, (char *)data, size) != size)
            return -1;
        offset += size;
    }
    return 0;
}

enum { RECV_OK = 0, RECV_SHORT = 1, RECV_MISMATCH = 2 };

/*
 * Reads nbytes in chunks of at most chunk bytes into buf (chunk bytes large).
 * With --verify, compares against the pattern and on the first difference
 * prints "<who>: payload mismatch ..." to stderr.
 */
static int
recv_payload(struct rx_call *call, afs_int32 nbytes, int chunk,
             unsigned char *buf, const char *who)
{
    afs_int32 offset = 0;

    while (offset < nbytes) {
        int size = nbytes - offset < chunk ? nbytes - offset : chunk;
        int got = rx_Read(call, (char *)buf, size);
        if (got != size) {
            fprintf(stderr, "rxperf-peer: %s: short read at payload offset %d of %d "
                    "(got %d of %d bytes, call error %d)\n",
                    who, offset, nbytes, got < 0 ? 0 : got, size, rx_Error(call));
            return RECV_SHORT;
        }
        if (verify_payload) {
            const unsigned char *expect = pattern + offset % PATTERN_PERIOD;
            if (memcmp(buf, expect, (size_t)size) != 0) {
                int k = 0;
                while (buf[k] == expect[k])
                    k++;
                fprintf(stderr, "rxperf-peer: %s: payload mismatch at offset %d of %d: "
                        "got 0x%02x, expected 0x%02x (pattern i mod 251)\n",
                        who, offset + k, nbytes, buf[k], expect[k]);
                return RECV_MISMATCH;
            }
        }
        offset += size;
    }
    return RECV_OK;
}

static void
apply_tuning_before_init(const struct rx_tuning *tuning)
{
    if (tuning->nostats)
        rx_enable_stats = 0;
    /* The macro only raises the buffer above the 64 KiB default, like rxperf. */
    rx_SetUdpBufSize(tuning->udpbuf_kib * 1024);
}

static void
apply_tuning_after_init(const struct rx_tuning *tuning)
{
    if (tuning->nojumbo)
        rx_SetNoJumbo();
    if (tuning->maxmtu)
        rx_SetMaxMTU(tuning->maxmtu);
    if (tuning->maxwindow) {
        /* Exported setters; the library clamps them to rx_maxWindow (255). */
        rx_SetMaxReceiveWindow(tuning->maxwindow);
        rx_SetMaxSendWindow(tuning->maxwindow);
    }
    if (tuning->minpeertimeout)
        rx_SetMinPeerTimeout(tuning->minpeertimeout);
}

/* ---------------------------------------------------------------- security */

enum { RXKAD_INDEX = 2, KEY_BYTES = 8, KVNO_SKIPPED = 999, MAX_KEYS = 256 };

struct server_key {
    afs_int32 kvno;
    struct ktc_encryptionKey key;
};

static struct server_key keys[MAX_KEYS];
static int key_count;

static afs_int32
big_endian32(const unsigned char *p)
{
    return (afs_int32)(((afs_uint32)p[0] << 24) | ((afs_uint32)p[1] << 16) | ((afs_uint32)p[2] << 8) | p[3]);
}

/* Reads the KeyFile asetkey writes (a big-endian key count, then per key a kvno and 8 DES key bytes). */
static void
read_keyfile(const char *path)
{
    unsigned char head[4], entry[4 + KEY_BYTES];
    afs_int32 count, i;
    FILE *f = fopen(path, "rb");

    if (f == NULL)
        die("--keyfile %s: cannot open", path);
    if (fread(head, 1, 4, f) != 4)
        die("--keyfile %s: shorter than its key count", path);
    count = big_endian32(head);
    if (count < 0 || count > MAX_KEYS)
        die("--keyfile %s: key count out of range 0..256", path);
    for (i = 0; i < count; i++) {
        if (fread(entry, 1, sizeof(entry), f) != sizeof(entry))
            die("--keyfile %s: ends inside a key", path);
        keys[i].kvno = big_endian32(entry);
        memcpy(keys[i].key.data, entry + 4, KEY_BYTES);
    }
    key_count = count;
    fclose(f);
}

/* The server's get-key: the DES key of kvno, or RXKADUNKNOWNKEY. */
static int
get_key(void *rock, int kvno, struct ktc_encryptionKey *key)
{
    int i;
    (void)rock;
    for (i = 0; i < key_count; i++) {
        if (keys[i].kvno == kvno) {
            memcpy(key, &keys[i].key, sizeof(*key));
            return 0;
        }
    }
    return RXKADUNKNOWNKEY;
}

/* The --security word of an rxkad level (libafsrpc does not export rxkad_LevelToString). */
static const char *
level_name(int level)
{
    static const char *const names[] = { "clear", "auth", "crypt" };
    return level >= 0 && level <= 2 ? names[level] : "unknown";
}

/* Sets each byte's low bit so the byte has odd parity, as DES keys have. */
static void
odd_parity(unsigned char *key)
{
    int i, bit, ones;
    for (i = 0; i < KEY_BYTES; i++) {
        ones = 0;
        for (bit = 1; bit < 8; bit++)
            ones += (key[i] >> bit) & 1;
        key[i] = (unsigned char)((key[i] & 0xfe) | !(ones & 1));
    }
}

/* The client's rxkad class: a ticket for "afs" sealed with the newest DES key, like -localauth's. */
static struct rx_securityClass *
client_rxkad(void)
{
    struct ktc_encryptionKey session;
    char ticket[MAXKTCTICKETLEN];
    int i, newest = -1, ticket_len = sizeof(ticket), code;
    FILE *random;

    for (i = 0; i < key_count; i++)
        if (keys[i].kvno != KVNO_SKIPPED && keys[i].kvno >= 0 && keys[i].kvno <= 255
            && (newest < 0 || keys[i].kvno > keys[newest].kvno))
            newest = i;
    if (newest < 0)
        die("--keyfile %s: no DES key of kvno 0..255", keyfile_path);
    random = fopen("/dev/urandom", "rb");
    if (random == NULL || fread(session.data, 1, KEY_BYTES, random) != KEY_BYTES)
        die("cannot read /dev/urandom for a session key%s", "");
    fclose(random);
    odd_parity((unsigned char *)session.data);
    code = tkt_MakeTicket(ticket, &ticket_len, &keys[newest].key, "afs", "", "", 0, 0xffffffff, &session, 0,
                          "afs", "");
    if (code != 0)
        die("tkt_MakeTicket failed%s", "");
    return rxkad_NewClientSecurityObject((rxkad_level)security_level, &session, keys[newest].kvno, ticket_len,
                                         ticket);
}

/* Server: names a connection's security class and rxkad level on stderr at its first call. */
static void
note_connection(struct rx_call *call)
{
    struct rx_connection *conn = rx_ConnectionOf(call);
    rxkad_level level = 0;
    int i, index = rx_SecurityClassOf(conn);

    pthread_mutex_lock(&seen_lock);
    for (i = 0; i < seen_count; i++) {
        if (seen_conns[i] == conn) {
            pthread_mutex_unlock(&seen_lock);
            return;
        }
    }
    if (seen_count < (int)(sizeof(seen_conns) / sizeof(seen_conns[0])))
        seen_conns[seen_count++] = conn;
    pthread_mutex_unlock(&seen_lock);
    if (index == RXKAD_INDEX && rxkad_GetServerInfo(conn, &level, NULL, NULL, NULL, NULL, NULL) == 0)
        fprintf(stderr, "rxperf-peer: server: connection security index %d, rxkad level %s\n", index,
                level_name(level));
    else
        fprintf(stderr, "rxperf-peer: server: connection security index %d\n", index);
}

/* ---------------------------------------------------------------- server */

static __thread unsigned char *server_buffer;   /* one receive buffer per server thread */

static afs_int32
serve_call(struct rx_call *call)
{
    afs_int32 version, command, read_chunk, write_chunk, nbytes, client_sends, client_receives;
    int rc;

    if (server_buffer == NULL) {
        server_buffer = malloc(PERF_CHUNK_MAX);
        if (server_buffer == NULL) {
            fprintf(stderr, "rxperf-peer: server: out of memory\n");
            return -1;
        }
    }
    note_connection(call);
    if (read_int32(call, &version) || read_int32(call, &command)
        || read_int32(call, &read_chunk) || read_int32(call, &write_chunk)) {
        fprintf(stderr, "rxperf-peer: server: short parameter block\n");
        return -1;
    }
    if (version != PERF_VERSION) {
        fprintf(stderr, "rxperf-peer: server: client has wrong version %d\n", version);
        return -1;
    }
    if (read_chunk <= 0 || read_chunk > PERF_CHUNK_MAX
        || write_chunk <= 0 || write_chunk > PERF_CHUNK_MAX) {
        fprintf(stderr, "rxperf-peer: server: chunk sizes %d/%d out of range 1..%d\n",
                read_chunk, write_chunk, PERF_CHUNK_MAX);
        return -1;
    }

    switch (command) {
    case PERF_CMD_SEND:
        if (read_int32(call, &nbytes) || nbytes < 0)
            return -1;
        rc = recv_payload(call, nbytes, read_chunk, server_buffer, "server SEND");
        if (rc != RECV_OK)
            return rc == RECV_MISMATCH ? PEER_VERIFY_ABORT : -1;
        break;
    case PERF_CMD_RECV:
        if (read_int32(call, &nbytes) || nbytes < 0)
            return -1;
        if (send_payload(call, nbytes, write_chunk, server_buffer))
            return -1;
        break;
    case PERF_CMD_RPC:
        if (read_int32(call, &client_sends) || read_int32(call, &client_receives)
            || client_sends < 0 || client_receives < 0)
            return -1;
        rc = recv_payload(call, client_sends, read_chunk, server_buffer, "server RPC");
        if (rc != RECV_OK)
            return rc == RECV_MISMATCH ? PEER_VERIFY_ABORT : -1;
        if (send_payload(call, client_receives, write_chunk, server_buffer))
            return -1;
        break;
    default:
        fprintf(stderr, "rxperf-peer: server: unsupported command %d\n", command);
        return -1;
    }
    return write_int32(call, PERF_COOKIE) ? -1 : 0;
}

static void
run_server(int port, const struct rx_tuning *tuning, int minprocs, int maxprocs)
{
    struct rx_securityClass *classes[RXKAD_INDEX + 1] = { NULL, NULL, NULL };
    struct rx_service *service;
    int nclasses = 1;

    apply_tuning_before_init(tuning);
    if (rx_InitHost(bind_addr, htons((unsigned short)port)) != 0) {
        fprintf(stderr, "rxperf-peer: server: rx_Init on UDP port %d failed (port in use?)\n", port);
        exit(1);
    }
    apply_tuning_after_init(tuning);

    if (security_level < 0) {
        classes[0] = rxnull_NewServerSecurityObject();   /* security index 0 = rxnull */
    } else {
        /* rxkad only: an rxnull connection finds no class at index 0 and is refused */
        classes[RXKAD_INDEX] = rxkad_NewServerSecurityObject((rxkad_level)security_level, NULL, get_key, NULL);
        nclasses = RXKAD_INDEX + 1;
    }
    service = rx_NewService(0, PERF_SERVICE_ID, "rxperf", classes, nclasses, serve_call);
    if (service == NULL) {
        fprintf(stderr, "rxperf-peer: server: rx_NewService failed\n");
        exit(1);
    }
    rx_SetMinProcs(service, minprocs);
    rx_SetMaxProcs(service, maxprocs);
    rx_SetCheckReach(service, 1);      /* like rxperf: ping new clients first */
    rx_StartServer(1);                 /* donates this thread; does not return */
    fprintf(stderr, "rxperf-peer: server: rx_StartServer returned\n");
    exit(1);
}

/* ---------------------------------------------------------------- client */

static long long
now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* User + system CPU time of the whole process so far, µs (getrusage). */
static long long
process_cpu_us(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1;
    return (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL
        + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

/* Counts a completed call if it ended inside the measured window (see --omit). */
static void
count_call(void)
{
    long long end = now_us();

    if (end - run_start_us < run_omit_us)
        return;
    pthread_mutex_lock(&window_lock);
    counted_calls++;
    if (window_cpu_us < 0)
        window_cpu_us = process_cpu_us();
    pthread_mutex_unlock(&window_lock);
}

struct client_job {
    struct rx_connection *conn;
    int command;
    int times;
    afs_int32 bytes;          /* SEND/RECV payload per call */
    afs_int32 sendbytes;      /* RPC: client -> server */
    afs_int32 readbytes;      /* RPC: server -> client */
};

static void
client_fail(const char *what, struct rx_call *call)
{
    afs_int32 code = rx_Error(call);
    fprintf(stderr, "rxperf-peer: client: %s (call error %d%s)\n", what, code,
            code == PEER_VERIFY_ABORT ? ": the server saw a payload mismatch" : "");
    exit(1);
}

static void *
client_thread(void *arg)
{
    const struct client_job *job = arg;
    unsigned char *buffer = malloc(PERF_CHUNK_MAX);
    int i;

    if (buffer == NULL) {
        fprintf(stderr, "rxperf-peer: client: out of memory\n");
        exit(1);
    }
    for (i = 0; run_time_us > 0 ? now_us() - run_start_us < run_time_us : i < job->times; i++) {
        struct rx_call *call = rx_NewCall(job->conn);
        afs_int32 cookie;
        afs_int32 code;
        int rc = RECV_OK;

        if (call == NULL) {
            fprintf(stderr, "rxperf-peer: client: rx_NewCall failed\n");
            exit(1);
        }
        if (write_int32(call, PERF_VERSION) || write_int32(call, job->command)
            || write_int32(call, default_read_chunk) || write_int32(call, default_write_chunk))
            client_fail("failed to send the parameter block", call);

        switch (job->command) {
        case PERF_CMD_SEND:
            if (write_int32(call, job->bytes) || send_payload(call, job->bytes, default_write_chunk, buffer))
                client_fail("failed to send the payload", call);
            break;
        case PERF_CMD_RECV:
            if (write_int32(call, job->bytes))
                client_fail("failed to send the size", call);
            rc = recv_payload(call, job->bytes, default_read_chunk, buffer, "client RECV");
            break;
        case PERF_CMD_RPC:
            if (write_int32(call, job->sendbytes) || write_int32(call, job->readbytes)
                || send_payload(call, job->sendbytes, default_write_chunk, buffer))
                client_fail("failed to send the request", call);
            rc = recv_payload(call, job->readbytes, default_read_chunk, buffer, "client RPC");
            break;
        }
        if (rc == RECV_MISMATCH) {
            rx_EndCall(call, PEER_VERIFY_ABORT);
            exit(1);
        }
        if (rc != RECV_OK)
            client_fail("failed to read the payload", call);
        if (read_int32(call, &cookie))
            client_fail("failed to read the result cookie from the server", call);
        if (cookie != PERF_COOKIE) {
            fprintf(stderr, "rxperf-peer: client: server sent wrong cookie 0x%08x\n",
                    (unsigned)cookie);
            if (verify_payload)
                exit(1);
        }
        code = rx_EndCall(call, 0);
        if (code != 0) {
            fprintf(stderr, "rxperf-peer: client: call ended with error %d\n", code);
            exit(1);
        }
        if (run_time_us > 0)
            count_call();
    }
    free(buffer);
    return NULL;
}

/* OpenAFS 1.8 rxperf's result line (rx-wire-facts.md section 10). */
static void
print_result(const char *stamp, long long total_bytes, long long elapsed_us)
{
    double kbps;

    if (elapsed_us <= 0)
        elapsed_us = 1;
    printf("%s:\t%8llu msec", stamp, (unsigned long long)(elapsed_us / 1000));
    kbps = total_bytes * 8000.0 / elapsed_us;
    if (kbps > 1000000.0)
        printf("\t[%.4g Gbit/s]\n", kbps / 1000000.0);
    else if (kbps > 1000.0)
        printf("\t[%.4g Mbit/s]\n", kbps / 1000.0);
    else
        printf("\t[%.4g kbit/s]\n", kbps);
    fflush(stdout);
}

static afs_uint32
resolve_host(const char *name)
{
    struct in_addr addr;
    struct hostent *h;

    if (inet_aton(name, &addr))
        return addr.s_addr;
    h = gethostbyname(name);
    if (h == NULL || h->h_addrtype != AF_INET)
        die("can't resolve server host %s", name);
    memcpy(&addr, h->h_addr_list[0], sizeof(addr));
    return addr.s_addr;
}

static void
run_client(const char *host, int port, const struct rx_tuning *tuning, int command,
           int times, int threads, afs_int32 bytes, afs_int32 sendbytes,
           afs_int32 readbytes, int dumpstats)
{
    struct rx_securityClass *security;
    struct rx_connection *conn;
    struct client_job jobs[PERF_MAX_THREADS];
    pthread_t tids[PERF_MAX_THREADS];
    afs_uint32 addr = resolve_host(host);
    char stamp[256];
    long long start_us, end_us, end_cpu_us, total_bytes, calls, payload;
    int i;

    apply_tuning_before_init(tuning);
    if (rx_InitHost(bind_addr, 0) != 0) {
        fprintf(stderr, "rxperf-peer: client: rx_Init failed\n");
        exit(1);
    }
    apply_tuning_after_init(tuning);
    security = security_level < 0 ? rxnull_NewClientSecurityObject() : client_rxkad();

    conn = NULL;
    for (i = 0; i < threads; i++) {
        /* One connection per RX_MAXCALLS (4) threads, as rxperf does. */
        if (i % RX_MAXCALLS == 0) {
            conn = rx_NewConnection(addr, htons((unsigned short)port), PERF_SERVICE_ID, security,
                                    security_level < 0 ? 0 : RXKAD_INDEX);
            if (conn == NULL)
                die("failed to contact server %s", host);
        }
        jobs[i].conn = conn;
        jobs[i].command = command;
        jobs[i].times = times;
        jobs[i].bytes = bytes;
        jobs[i].sendbytes = sendbytes;
        jobs[i].readbytes = readbytes;
    }

    start_us = now_us();
    run_start_us = start_us;
    if (run_time_us == 0 || run_omit_us == 0)
        window_cpu_us = process_cpu_us();
    for (i = 0; i < threads; i++)
        if (pthread_create(&tids[i], NULL, client_thread, &jobs[i]) != 0)
            die("pthread_create failed%s", "");
    for (i = 0; i < threads; i++)
        pthread_join(tids[i], NULL);
    end_us = now_us();
    end_cpu_us = process_cpu_us();

    /* A timed run reports what it counted: times = counted calls / threads, bytes from the counted calls. */
    calls = run_time_us > 0 ? counted_calls : (long long)threads * times;
    if (run_time_us > 0)
        times = (int)(calls / threads);
    if (command == PERF_CMD_RPC)
        snprintf(stamp, sizeof(stamp), "RPC: threads\t%d, times\t%d, write bytes\t%d, read bytes\t%d",
                 threads, times, sendbytes, readbytes);
    else
        snprintf(stamp, sizeof(stamp), "%s: threads\t%d, times\t%d, bytes\t%d",
                 command == PERF_CMD_SEND ? "SEND" : "RECV", threads, times, bytes);
    payload = command == PERF_CMD_RPC ? (long long)(sendbytes + readbytes) : (long long)bytes;
    total_bytes = calls * payload;
    print_result(stamp, total_bytes, end_us - (start_us + run_omit_us));
    if (report_cpu) {
        if (window_cpu_us < 0 || end_cpu_us < 0) {
            printf("CPU (process user+sys):\tnot reported by this platform\n");
        } else {
            double cpu_s = (end_cpu_us - window_cpu_us) / 1e6;
            printf("CPU (process user+sys):\t%.3f s, %.3f s/GiB, %.1f usec/call\n", cpu_s,
                   total_bytes > 0 ? cpu_s / (total_bytes / 1073741824.0) : 0.0,
                   calls > 0 ? cpu_s * 1e6 / calls : 0.0);
        }
        fflush(stdout);
    }

    if (dumpstats) {
        rx_PrintStats(stdout);
        rx_PrintPeerStats(stdout, rx_PeerOf(jobs[0].conn));
    }
    rx_Finalize();
}

/* ---------------------------------------------------------------- main */

static void
usage(void)
{
    fprintf(stderr,
            "usage: rxperf-peer server [-p port] [-j] [-W packets] [-u KiB] [-m mtu] [-P ms]\n"
            "                          [-s minprocs] [-S maxprocs] [-N] [--verify]\n"
            "                          [--bind ADDR] [--corrupt-at N]\n"
            "                          [--security none|clear|auth|crypt --keyfile PATH]\n"
            "       rxperf-peer client -c send|recv|rpc [-b bytes] [-T times] [-t threads]\n"
            "                          [-S sendbytes] [-R recvbytes] [-s host] [-p port]\n"
            "                          [-r readchunk] [-w writechunk] [-j] [-W packets]\n"
            "                          [-u KiB] [-m mtu] [-P ms] [-N | -D] [--verify]\n"
            "                          [--bind ADDR] [--corrupt-at N]\n"
            "                          [--time SECONDS [--omit SECONDS]] [--cpu]\n"
            "                          [--security none|clear|auth|crypt --keyfile PATH]\n"
            "  --verify      check that received payload byte i is i mod 251\n"
            "  --bind ADDR   local IPv4 address to bind (default 127.0.0.1)\n"
            "  --corrupt-at N  flip sent payload byte N of every call (tests --verify)\n"
            "  --time S      client: run calls for S seconds instead of -T times\n"
            "  --omit S      client, with --time: leave the first S seconds out of the figures\n"
            "  --cpu         client: print the process CPU time over the measured window\n"
            "  --security L  none (rxnull) or rxkad at clear, auth or crypt (server: the least it accepts)\n"
            "  --keyfile P   AFS KeyFile: the server's keys; the client mints a ticket from the newest\n");
    exit(1);
}

enum { OPT_CORRUPT_AT = 1000, OPT_BIND, OPT_TIME, OPT_OMIT, OPT_SECURITY, OPT_KEYFILE };

static const struct option long_options[] = {
    { "verify", no_argument, &verify_payload, 1 },
    { "corrupt-at", required_argument, NULL, OPT_CORRUPT_AT },
    { "bind", required_argument, NULL, OPT_BIND },
    { "time", required_argument, NULL, OPT_TIME },
    { "omit", required_argument, NULL, OPT_OMIT },
    { "cpu", no_argument, &report_cpu, 1 },
    { "security", required_argument, NULL, OPT_SECURITY },
    { "keyfile", required_argument, NULL, OPT_KEYFILE },
    { NULL, 0, NULL, 0 }
};

/* Handles an option common to client and server; returns 0 if ch is not one. */
static int
common_option(int ch, struct rx_tuning *tuning, int *port)
{
    long value;

    switch (ch) {
    case 'p':
        value = parse_number(optarg, "port");
        if (value <= 0 || value > 65535)
            die("port %s out of range 1..65535", optarg);
        *port = (int)value;
        return 1;
    case 'j':
        tuning->nojumbo = 1;
        return 1;
    case 'W':
        value = parse_number(optarg, "max send/recv window size (packets)");
        if (value < 1 || value > 255)
            die("window %s out of range 1..255 packets", optarg);
        tuning->maxwindow = (int)value;
        return 1;
    case 'u':
        value = parse_number(optarg, "udp buffer size (KiB)");
        if (value < 1 || value > 1024 * 1024)
            die("udp buffer %s KiB out of range", optarg);
        tuning->udpbuf_kib = (int)value;
        return 1;
    case 'm':
        tuning->maxmtu = (int)parse_number(optarg, "rx maxmtu");
        return 1;
    case 'P':
        tuning->minpeertimeout = (int)parse_number(optarg, "min peer timeout (ms)");
        return 1;
    case 'N':
        tuning->nostats = 1;
        return 1;
    case 0:             /* --verify */
        return 1;
    case OPT_CORRUPT_AT:
        corrupt_offset = parse_number(optarg, "--corrupt-at offset");
        if (corrupt_offset < 0)
            die("--corrupt-at %s must be >= 0", optarg);
        return 1;
    case OPT_BIND: {
        struct in_addr addr;
        if (!inet_aton(optarg, &addr))
            die("--bind %s is not an IPv4 address", optarg);
        bind_addr = addr.s_addr;
        return 1;
    }
    case OPT_SECURITY:
        if (strcmp(optarg, "none") == 0)
            security_level = -1;
        else if (strcmp(optarg, "clear") == 0)
            security_level = rxkad_clear;
        else if (strcmp(optarg, "auth") == 0)
            security_level = rxkad_auth;
        else if (strcmp(optarg, "crypt") == 0)
            security_level = rxkad_crypt;
        else
            die("--security %s is not one of none, clear, auth, crypt", optarg);
        return 1;
    case OPT_KEYFILE:
        keyfile_path = optarg;
        return 1;
    }
    return 0;
}

/* Checks --security against --keyfile and reads the KeyFile when a level needs it. */
static void
load_security(void)
{
    if (security_level >= 0 && keyfile_path == NULL)
        die("--security %s needs --keyfile PATH", level_name(security_level));
    if (security_level >= 0)
        read_keyfile(keyfile_path);
}

/* Parses --time/--omit seconds (a decimal number, 0..86400) into µs, or exits naming the option. */
static long long
parse_seconds_us(const char *text, const char *what)
{
    char *end;
    double value;

    errno = 0;
    value = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(value >= 0 && value <= 86400))
        die("%s: not a number of seconds in 0..86400", what);
    return (long long)(value * 1e6 + 0.5);
}

static int
chunk_option(const char *text, const char *what)
{
    long value = parse_number(text, what);
    if (value < 1 || value > PERF_CHUNK_MAX)
        die("%s out of range 1..524288", what);
    return (int)value;
}

int
main(int argc, char **argv)
{
    struct rx_tuning tuning = { 0, 0, 0, 64, 0, 0 };
    int port = PERF_DEFAULT_PORT;
    int ch;

    fill_pattern();
    bind_addr = htonl(INADDR_LOOPBACK);   /* loopback only unless --bind says otherwise */
    if (argc < 2)
        usage();

    if (strcmp(argv[1], "server") == 0) {
        int minprocs = 2, maxprocs = 20;
        while ((ch = getopt_long(argc - 1, argv + 1, "p:jW:u:m:P:s:S:N", long_options, NULL)) != -1) {
            if (common_option(ch, &tuning, &port))
                continue;
            switch (ch) {
            case 's': minprocs = (int)parse_number(optarg, "minprocs"); break;
            case 'S': maxprocs = (int)parse_number(optarg, "maxprocs"); break;
            default: usage();
            }
        }
        if (optind != argc - 1)
            usage();
        load_security();
        run_server(port, &tuning, minprocs, maxprocs);
    } else if (strcmp(argv[1], "client") == 0) {
        const char *host = "127.0.0.1";
        int command = -1, times = 100, threads = 1, dumpstats = 0;
        long bytes = 1024 * 1024, sendbytes = 3, readbytes = 30;

        while ((ch = getopt_long(argc - 1, argv + 1, "c:b:T:t:S:R:s:p:r:w:jW:u:m:P:ND",
                                 long_options, NULL)) != -1) {
            if (common_option(ch, &tuning, &port))
                continue;
            switch (ch) {
            case 'c':
                if (strcasecmp(optarg, "send") == 0)
                    command = PERF_CMD_SEND;
                else if (strcasecmp(optarg, "recv") == 0)
                    command = PERF_CMD_RECV;
                else if (strcasecmp(optarg, "rpc") == 0)
                    command = PERF_CMD_RPC;
                else
                    die("unknown or unsupported command %s (send, recv, rpc)", optarg);
                break;
            case 'b': bytes = parse_number(optarg, "number of bytes to transfer"); break;
            case 'T': times = (int)parse_number(optarg, "number of times to execute rpc"); break;
            case 't': threads = (int)parse_number(optarg, "number of threads"); break;
            case 'S': sendbytes = parse_number(optarg, "number of bytes to send"); break;
            case 'R': readbytes = parse_number(optarg, "number of bytes to receive"); break;
            case 's': host = optarg; break;
            case 'r': default_read_chunk = chunk_option(optarg, "read chunk size"); break;
            case 'w': default_write_chunk = chunk_option(optarg, "write chunk size"); break;
            case 'D': dumpstats = 1; break;
            case OPT_TIME:
                run_time_us = parse_seconds_us(optarg, "--time");
                if (run_time_us <= 0)
                    die("--time: must be more than 0 seconds%s", "");
                break;
            case OPT_OMIT: run_omit_us = parse_seconds_us(optarg, "--omit"); break;
            default: usage();
            }
        }
        if (optind != argc - 1)
            usage();
        load_security();
        if (command < 0)
            die("no command given to the client (-c send|recv|rpc)%s", "");
        if (threads < 1 || threads > PERF_MAX_THREADS)
            die("threads out of range 1..128%s", "");
        if (times < 0 || bytes < 0 || bytes > 0x7fffffff || sendbytes < 0
            || sendbytes > 0x7fffffff || readbytes < 0 || readbytes > 0x7fffffff)
            die("negative or too large count%s", "");
        if (run_time_us <= 0 && run_omit_us > 0)
            die("--omit needs --time%s", "");
        if (run_time_us > 0 && run_omit_us >= run_time_us)
            die("--omit must be less than --time%s", "");
        if (tuning.nostats && dumpstats)
            die("cannot set both -N and -D%s", "");
        run_client(host, port, &tuning, command, times, threads, (afs_int32)bytes,
                   (afs_int32)sendbytes, (afs_int32)readbytes, dumpstats);
    } else {
        usage();
    }
    return 0;
}
