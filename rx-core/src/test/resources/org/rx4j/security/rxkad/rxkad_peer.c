// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/*
 * rx4j's cross-check harness for rxkad primitives: links Debian's OpenAFS libraries (libopenafs-dev) and prints what
 * they compute, so RxkadPeerTest can compare rx4j's Java results with the real thing. Written for rx4j; reads one
 * command per line on stdin and answers one line on stdout. All numbers are hex; byte strings are hex in wire order.
 *
 *   ecb KEY BLOCK                          -> fcrypt encryption of one 8-byte block
 *   pcbc KEY IV DATA                       -> fc_cbc_encrypt (PCBC) of DATA, a multiple of 8 bytes
 *   conn KEY EPOCH CID SECIDX              -> the per-connection checksum value (rxkad_DeriveXORInfo)
 *   prep LEVEL KEY EPOCH CID CALL SEQ DATA -> "CKSUM PAYLOAD": rxkad_PreparePacket on a DATA packet of a client
 *                                             connection at LEVEL (0..2) whose user data is DATA
 *   resp HEX56                             -> rxkad_CksumChallengeResponse of a 56-byte plain RESPONSE header
 *   kdf ENCTYPE KEY                        -> tkt_DeriveDesKey: the rxkad key from a Kerberos 5 session key
 *   life START LIFE                        -> life_to_time: the end time of a ticket lifetime byte
 *   tolife START END                       -> time_to_life: the lifetime byte for a start and end time
 *   mktkt KEY NAME INST CELL START END SESSIONKEY HOST SNAME SINST
 *                                          -> tkt_MakeTicket: a v4-style ticket sealed with KEY, which must have DES
 *                                             odd parity (else OpenAFS prints to stdout) ("-" is an empty
 *                                             string; times and host hex)
 *   mktkt5 ENCTYPE KVNO KEY NAME INST CELL START END SESSIONKEY
 *                                          -> "KVNO TICKET": tkt_MakeTicket5, the Kerberos 5 ticket -localauth mints
 *                                             from an rxkad_krb5 key (KVNO is the kvno to send it with)
 *   dectkt5 TKTKVNO ENCTYPE KVNO KEY TICKET
 *                                          -> "NAME INST CELL SESSIONKEY START END", or "code N": tkt_DecodeTicket5
 *                                             of a ticket sent with TKTKVNO (256 or 213), the server holding the one
 *                                             rxkad_krb5 key KEY of KVNO and ENCTYPE
 *   now SECONDS                            -> "ok": the clock the library reads from now on is fixed at SECONDS
 *                                             since the epoch (0: the system clock again)
 *
 * Build: gcc rxkad_peer.c /usr/lib/libafsrpc.a /usr/lib/libopr.a -lhcrypto -lroken -lpthread
 */
#include <afs/param.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <rx/rx.h>
#include <rx/rx_packet.h>
#include <rx/rx_globals.h>
#include <rx/rxkad.h>
#include <time.h>

/* The library's ticket checks (tkt_DecodeTicket5 and friends) read time() themselves. Defining time() here makes
   the statically linked library read this one, so a test can check a fixture that has a lifetime at a fixed instant
   inside it, and passes on any date. */
static time_t fixed_now;

time_t time(time_t *t)
{
    time_t now = fixed_now;
    if (now == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        now = ts.tv_sec;
    }
    if (t != NULL)
        *t = now;
    return now;
}


static int unhex(const char *s, unsigned char *out, int max)
{
    int n = (int)strlen(s) / 2;
    if (n > max)
        return -1;
    for (int i = 0; i < n; i++) {
        unsigned int v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (unsigned char)v;
    }
    return n;
}

static void puthex(const unsigned char *b, int n)
{
    for (int i = 0; i < n; i++)
        printf("%02x", b[i]);
}

static void dash_to_empty(char *s)
{
    if (strcmp(s, "-") == 0)
        s[0] = 0;
}

/* A client connection whose epoch and cid are chosen by the caller: rx numbers a new connection from these two. */
/* The one rxkad_krb5 key dectkt5's server holds. */
static unsigned char k5_key[64];
static size_t k5_keylen;
static int k5_kvno, k5_enctype;

static int no_des_key(void *rock, int kvno, struct ktc_encryptionKey *key)
{
    return 1;
}

static int k5_get_key(void *rock, int kvno, int enctype, void *out, size_t *len)
{
    if (kvno != k5_kvno || enctype != k5_enctype || *len < k5_keylen)
        return 1;
    memcpy(out, k5_key, k5_keylen);
    *len = k5_keylen;
    return 0;
}

static struct rx_connection *client_conn(struct rx_securityClass *sc, afs_uint32 epoch, afs_uint32 cid)
{
    rx_epoch = epoch;
    rx_nextCid = cid & ~3u;
    return rx_NewConnection(htonl(0x7f000001), htons(7), 1, sc, 2);
}

int main(void)
{
    static char line[140000];
    static unsigned char data[70000], out[70000];
    char cmd[16], a[140000], b[64], c[140000];
    int enctype;

    if (rx_Init(0) != 0) {
        fprintf(stderr, "rx_Init failed\n");
        return 1;
    }
    rxkad_Init();
    while (fgets(line, sizeof(line), stdin)) {
        unsigned char key[8], iv[8];
        fc_KeySchedule sched;
        if (sscanf(line, "%15s", cmd) != 1)
            continue;
        if (strcmp(cmd, "ecb") == 0 && sscanf(line, "%*s %63s %63s", b, a) == 2) {
            unhex(b, key, 8);
            unhex(a, data, 8);
            fc_keysched((struct ktc_encryptionKey *)key, sched);
            fc_ecb_encrypt(data, out, sched, 1);
            puthex(out, 8);
        } else if (strcmp(cmd, "pcbc") == 0 && sscanf(line, "%*s %63s %63s %139999s", b, c, a) == 3) {
            int n;
            afs_uint32 x[2];
            unhex(b, key, 8);
            unhex(c, iv, 8);
            n = unhex(a, data, sizeof(data));
            fc_keysched((struct ktc_encryptionKey *)key, sched);
            memcpy(x, iv, 8);
            fc_cbc_encrypt(data, out, n, sched, x, 1);
            puthex(out, n);
        } else if (strcmp(cmd, "conn") == 0) {
            unsigned int epoch, cid, secidx;
            struct rx_securityClass *sc;
            struct rx_connection *conn;
            unsigned char value[8];
            if (sscanf(line, "%*s %63s %x %x %x", b, &epoch, &cid, &secidx) != 4 || secidx != 2)
                goto bad;
            unhex(b, key, 8);
            sc = rxkad_NewClientSecurityObject(rxkad_clear, (struct ktc_encryptionKey *)key, 0, 32, (char *)data);
            conn = client_conn(sc, epoch, cid);
            fc_keysched((struct ktc_encryptionKey *)key, sched);
            rxkad_DeriveXORInfo(conn, &sched, (char *)key, (char *)value);
            puthex(value, 8);
            rx_DestroyConnection(conn);
        } else if (strcmp(cmd, "prep") == 0) {
            unsigned int level, epoch, cid, callno, seq;
            int n, hdr;
            struct rx_securityClass *sc;
            struct rx_connection *conn;
            struct rx_call *call;
            struct rx_packet *p;
            a[0] = 0;
            if (sscanf(line, "%*s %u %63s %x %x %x %x %139999s", &level, b, &epoch, &cid, &callno, &seq, a) < 6
                || level > 2)
                goto bad;
            unhex(b, key, 8);
            n = unhex(a, data, sizeof(data));
            hdr = level == 0 ? 0 : level == 1 ? 4 : 8;
            sc = rxkad_NewClientSecurityObject(level, (struct ktc_encryptionKey *)key, 0, 32, (char *)out);
            conn = client_conn(sc, epoch, cid);
            call = rx_NewCall(conn);
            p = rxi_AllocPacket(RX_PACKET_CLASS_SEND);
            rxi_AllocDataBuf(p, n + hdr + 16, RX_PACKET_CLASS_SEND_CBUF);
            p->header.epoch = epoch;
            p->header.cid = cid;
            p->header.callNumber = callno;
            p->header.seq = seq;
            p->header.securityIndex = 2;
            /* Zero the security header and the padding: rxkad pads with whatever the buffer holds. */
            memset(out, 0, (size_t)(n + hdr + 16));
            memcpy(out + hdr, data, (size_t)n);
            rx_packetwrite(p, 0, n + hdr + 16, (char *)out);
            rx_SetDataSize(p, n);
            if (rxkad_PreparePacket(sc, call, p) != 0)
                goto bad;
            n = (int)rx_GetDataSize(p);
            rx_packetread(p, 0, n, (char *)out);
            printf("%04x ", (unsigned int)rx_GetPacketCksum(p));
            puthex(out, n);
            rxi_FreePacket(p);
            /* The call and connection are left as they are: ending a call that never sent anything waits about a
             * second inside rx, and the harness lives for a few hundred commands only. */
        } else if (strcmp(cmd, "resp") == 0 && sscanf(line, "%*s %139999s", a) == 1) {
            afs_uint32 sum;
            if (unhex(a, data, 56) != 56)
                goto bad;
            sum = rxkad_CksumChallengeResponse((struct rxkad_v2ChallengeResponse *)data);
            puthex((unsigned char *)&sum, 4);
        } else if (strcmp(cmd, "kdf") == 0 && sscanf(line, "%*s %d %139999s", &enctype, a) == 2) {
            struct ktc_encryptionKey derived;
            int n = unhex(a, data, 512);
            if (n < 0 || tkt_DeriveDesKey(enctype, data, (size_t)n, &derived) != 0)
                goto bad;
            puthex((unsigned char *)&derived, 8);
        } else if (strcmp(cmd, "life") == 0) {
            unsigned int start, life;
            if (sscanf(line, "%*s %x %x", &start, &life) != 2)
                goto bad;
            printf("%x", (unsigned int)life_to_time(start, (unsigned char)life));
        } else if (strcmp(cmd, "tolife") == 0) {
            unsigned int start, end;
            if (sscanf(line, "%*s %x %x", &start, &end) != 2)
                goto bad;
            printf("%x", (unsigned int)time_to_life(start, end));
        } else if (strcmp(cmd, "mktkt") == 0) {
            char name[64], inst[64], cell[64], sname[64], sinst[64], skey[64];
            unsigned int start, end, host;
            unsigned char session[8];
            int len = 0;
            if (sscanf(line, "%*s %63s %63s %63s %63s %x %x %63s %x %63s %63s", b, name, inst, cell, &start, &end,
                       skey, &host, sname, sinst) != 10)
                goto bad;
            unhex(b, key, 8);
            unhex(skey, session, 8);
            dash_to_empty(name);
            dash_to_empty(inst);
            dash_to_empty(cell);
            dash_to_empty(sname);
            dash_to_empty(sinst);
            memset(out, 0, 12000);
            if (tkt_MakeTicket((char *)out, &len, (struct ktc_encryptionKey *)key, name, inst, cell, start, end,
                               (struct ktc_encryptionKey *)session, host, sname, sinst) != 0)
                goto bad;
            puthex(out, len);
        } else if (strcmp(cmd, "mktkt5") == 0) {
            char name[64], inst[64], cell[64], skey[64];
            unsigned int start, end;
            unsigned char session[8];
            int len = 12000, kvno, keylen;
            if (sscanf(line, "%*s %d %d %139999s %63s %63s %63s %x %x %63s", &enctype, &kvno, c, name, inst, cell,
                       &start, &end, skey) != 9)
                goto bad;
            keylen = unhex(c, k5_key, 64);
            unhex(skey, session, 8);
            dash_to_empty(name);
            dash_to_empty(inst);
            dash_to_empty(cell);
            memset(out, 0, 12000);
            if (tkt_MakeTicket5((char *)out, &len, enctype, &kvno, k5_key, (size_t)keylen, name, inst, cell, start,
                                end, (struct ktc_encryptionKey *)session, "afs", "") != 0)
                goto bad;
            printf("%d ", kvno);
            puthex(out, len);
        } else if (strcmp(cmd, "now") == 0) {
            long long seconds;
            if (sscanf(line, "%*s %llx", &seconds) != 1)
                goto bad;
            fixed_now = (time_t)seconds;
            printf("ok");
        } else if (strcmp(cmd, "dectkt5") == 0) {
            char name[64], inst[64], cell[64];
            struct ktc_encryptionKey session;
            afs_int32 host;
            afs_uint32 start, end;
            int tktkvno, len, code;
            if (sscanf(line, "%*s %d %d %d %139999s %139999s", &tktkvno, &k5_enctype, &k5_kvno, c, a) != 5)
                goto bad;
            k5_keylen = (size_t)unhex(c, k5_key, 64);
            len = unhex(a, out, 12000);
            code = tkt_DecodeTicket5((char *)out, len, no_des_key, k5_get_key, NULL, tktkvno, name, inst, cell,
                                     &session, &host, &start, &end, 0);
            if (code != 0) {
                printf("code %d", code);
            } else {
                printf("%s %s %s ", name[0] ? name : "-", inst[0] ? inst : "-", cell[0] ? cell : "-");
                puthex((unsigned char *)&session, 8);
                printf(" %x %x", start, end);
            }
        } else {
            goto bad;
        }
        printf("\n");
        fflush(stdout);
        continue;
      bad:
        printf("error\n");
        fflush(stdout);
    }
    return 0;
}
