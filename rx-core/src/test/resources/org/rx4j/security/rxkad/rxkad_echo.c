// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/*
 * rx4j's rxkad interop peer: a real OpenAFS Rx endpoint (Debian's libafsrpc, libopenafs-dev) with rxkad, written for
 * rx4j's RxkadOpenAfsTest. PORT, levels and NBYTES are decimal; keys, KVNO and the ticket are hex (byte strings in
 * wire order).
 *
 *   rxkad_echo server PORT MINLEVEL KEY KVNO
 *       Serves service 731 with rxkad (index 2) at least at MINLEVEL (0..2), the DES server key KEY of version
 *       KVNO. A call's reply is its request reversed, then one byte of the connection's level, then the caller's
 *       name. Prints "ready" once listening.
 *   rxkad_echo client PORT LEVEL SESSIONKEY KVNO TICKET NBYTES
 *       Calls service 731 on 127.0.0.1:PORT at LEVEL with the session key and ticket, sends NBYTES bytes
 *       (byte i = i % 251) and prints "ok LEN" and the reply's bytes after the reversed request as hex when the
 *       reply begins with the request reversed, "mismatch AT" when it does not, or "error CODE" when the call fails.
 *
 * Build: gcc rxkad_echo.c /usr/lib/libafsrpc.a /usr/lib/libopr.a -lhcrypto -lroken -lpthread
 */
#include <afs/param.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rx/rx.h>
#include <rx/rx_null.h>
#include <rx/rxkad.h>

#define SERVICE 731
#define MAXREQ (4 << 20)

static struct ktc_encryptionKey server_key;
static int server_kvno;

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

static int get_key(void *rock, int kvno, struct ktc_encryptionKey *key)
{
    if (kvno != server_kvno)
        return RXKADUNKNOWNKEY;
    memcpy(key, &server_key, sizeof(*key));
    return 0;
}

static afs_int32 echo(struct rx_call *call)
{
    static unsigned char req[MAXREQ], rep[MAXREQ + 80];
    int n = 0, got;
    rxkad_level level;
    afs_uint32 expires;
    char name[64], inst[64], cell[64];
    afs_int32 kvno;

    while ((got = rx_Read(call, (char *)req + n, MAXREQ - n)) > 0)
        n += got;
    if (rxkad_GetServerInfo(rx_ConnectionOf(call), &level, &expires, name, inst, cell, &kvno) != 0)
        return RXKADNOAUTH;
    for (int i = 0; i < n; i++)
        rep[i] = req[n - 1 - i];
    rep[n] = (unsigned char)level;
    int len = (int)strlen(name);
    memcpy(rep + n + 1, name, len);
    if (rx_Write(call, (char *)rep, n + 1 + len) != n + 1 + len)
        return rx_Error(call);
    return 0;
}

static int server(int port, int minlevel, const char *key, const char *kvno)
{
    struct rx_securityClass *sc[3];

    if (unhex(key, (unsigned char *)&server_key, 8) != 8)
        return 2;
    server_kvno = (int)strtol(kvno, NULL, 16);
    if (rx_Init(htons(port)) != 0) {
        fprintf(stderr, "rx_Init failed\n");
        return 1;
    }
    sc[0] = rxnull_NewServerSecurityObject();
    sc[1] = NULL;
    sc[2] = rxkad_NewServerSecurityObject(minlevel, NULL, get_key, NULL);
    struct rx_service *s = rx_NewService(0, SERVICE, "rx4j-echo", sc, 3, echo);
    if (s == NULL)
        return 1;
    rx_SetMinProcs(s, 2);
    rx_SetMaxProcs(s, 4);
    printf("ready\n");
    fflush(stdout);
    rx_StartServer(1);
    return 0;
}

static int client(int port, int level, const char *session, const char *kvno, const char *ticket, int nbytes)
{
    static unsigned char tkt[12100], req[MAXREQ], rep[MAXREQ + 80];
    struct ktc_encryptionKey key;
    int tlen = unhex(ticket, tkt, sizeof(tkt));

    if (unhex(session, (unsigned char *)&key, 8) != 8 || tlen < 0 || nbytes > MAXREQ)
        return 2;
    if (rx_Init(0) != 0)
        return 1;
    struct rx_securityClass *sc = rxkad_NewClientSecurityObject(level, &key, (afs_int32)strtol(kvno, NULL, 16),
                                                                tlen, (char *)tkt);
    struct rx_connection *conn = rx_NewConnection(htonl(0x7f000001), htons(port), SERVICE, sc, 2);
    struct rx_call *call = rx_NewCall(conn);
    for (int i = 0; i < nbytes; i++)
        req[i] = (unsigned char)(i % 251);
    rx_Write(call, (char *)req, nbytes);
    int n = 0, got;
    while ((got = rx_Read(call, (char *)rep + n, sizeof(rep) - n)) > 0)
        n += got;
    afs_int32 code = rx_EndCall(call, 0);
    if (code != 0) {
        printf("error %d\n", code);
        return 0;
    }
    for (int i = 0; i < nbytes; i++) {
        if (i >= n || rep[i] != req[nbytes - 1 - i]) {
            printf("mismatch %x\n", i);
            return 0;
        }
    }
    printf("ok %x ", n);
    for (int i = nbytes; i < n; i++)
        printf("%02x", rep[i]);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "server") == 0)
        return server(atoi(argv[2]), atoi(argv[3]), argv[4], argv[5]);
    if (argc == 8 && strcmp(argv[1], "client") == 0)
        return client(atoi(argv[2]), atoi(argv[3]), argv[4], argv[5], argv[6], atoi(argv[7]));
    fprintf(stderr, "usage: rxkad_echo server PORT MINLEVEL KEY KVNO | client PORT LEVEL KEY KVNO TICKET NBYTES\n");
    return 2;
}
