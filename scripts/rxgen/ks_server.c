// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/*
 * A C server for rx-gen's kitchen sink (rx-gen/src/test/resources/xg/kitchen.xg), built on the stubs Debian's
 * rxgen generates from the same file and on libafsrpc. It answers as the Java test server does
 * (KitchenLoopback.Impl), so the Java client's scenarios run unchanged against it: the bytes each side
 * writes must be what the other side's generated code reads.
 *
 * Usage: ks_server PORT   (service 4711, rxnull; runs until killed)
 */
#include <afsconfig.h>
#include <afs/param.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <rx/rx.h>
#include <rx/rx_null.h>
#include <rx/xdr.h>
#include "kitchen.h"

#define APP_ERROR 123456

/*
 * libafsrpc exports no XDR routine for unsigned short or bool (the kitchen sink uses both); these two follow
 * RFC 4506: a 4-byte unsigned int holding 0..65535, and a 4-byte int 0 (FALSE) or 1 (TRUE).
 */
bool_t
afs_xdr_u_short(XDR *xdrs, u_short *p)
{
    afs_uint32 v = *p;

    if (!xdr_afs_uint32(xdrs, &v))
        return FALSE;
    if (xdrs->x_op == XDR_DECODE)
        *p = (u_short) v;
    return TRUE;
}

bool_t
afs_xdr_bool(XDR *xdrs, bool_t *p)
{
    afs_int32 v = *p ? 1 : 0;

    if (!xdr_afs_int32(xdrs, &v))
        return FALSE;
    if (xdrs->x_op == XDR_DECODE)
        *p = v ? TRUE : FALSE;
    return TRUE;
}

/* Deep copy of an XDR value: encode into memory, decode into a zeroed destination. */
static int
xdr_copy(xdrproc_t proc, void *from, void *to, size_t size)
{
    u_int cap = 1 << 20, len;
    char *buf = malloc(cap);
    XDR x;
    int ok;

    if (buf == NULL)
        return 0;
    xdrmem_create(&x, buf, cap, XDR_ENCODE);
    ok = proc(&x, from);
    len = xdr_getpos(&x);
    if (ok) {
        memset(to, 0, size);
        xdrmem_create(&x, buf, len, XDR_DECODE);
        ok = proc(&x, to);
    }
    free(buf);
    return ok;
}

afs_int32
SKS_Echo(struct rx_call *call, afs_int32 a, ks_name n, afs_int32 *a2, ks_name n2)
{
    size_t len = strnlen(n, KS_MAXNAME), i;

    if (a == -1)
        return APP_ERROR;
    *a2 = a + 1;
    memset(n2, 0, KS_MAXNAME);
    for (i = 0; i < len; i++)
        n2[i] = n[len - 1 - i];
    return 0;
}

afs_int32
SKS_Ping(struct rx_call *call)
{
    return 0;
}

afs_int32
SKS_Everything(struct rx_call *call, ks_everything *in, ks_everything *out)
{
    return xdr_copy((xdrproc_t) xdr_ks_everything, in, out, sizeof(*out)) ? 0 : RXGEN_SS_MARSHAL;
}

afs_int32
SKS_Shapes(struct rx_call *call, ks_shape s, ks_inner *inner, ks_shape *back)
{
    if (!xdr_copy((xdrproc_t) xdr_ks_shape, &s, back, sizeof(*back)))
        return RXGEN_SS_MARSHAL;
    if (inner->color == KS_RED) {
        inner->ks_inner_u.red++;
    } else {
        inner->color = KS_GREEN;
        if (!xdr_copy((xdrproc_t) xdr_ks_shape, &s, &inner->ks_inner_u.shape, sizeof(ks_shape)))
            return RXGEN_SS_MARSHAL;
    }
    return 0;
}

afs_int32
SKS_Sum(struct rx_call *call, ks_idlist *ids, afs_int64 *total)
{
    u_int i;

    *total = 0;
    for (i = 0; i < ids->ks_idlist_len; i++) {
        if (ids->ks_idlist_val[i] == -1)
            sleep(5);   /* the deadline scenario needs a call that does not end soon */
        *total += ids->ks_idlist_val[i];
    }
    return 0;
}

afs_int32
SKS_Names(struct rx_call *call, char *stem, char **full)
{
    size_t len = strlen(stem) + 5;

    if (len > KS_MAXNAME)
        len = KS_MAXNAME;
    *full = malloc(len + 1);
    if (*full == NULL)
        return RXGEN_SS_MARSHAL;
    snprintf(*full, len + 1, "%s/full", stem);
    return 0;
}

afs_int32
SKS_Blob(struct rx_call *call, ks_blob *blob)
{
    u_int i;

    for (i = 0; i < blob->ks_blob_len; i++)
        blob->ks_blob_val[i] = ~blob->ks_blob_val[i];
    return 0;
}

afs_int32
SKS_Transfer(struct rx_call *call, afs_int32 length, afs_int32 *received, afs_uint32 *checksum)
{
    char *data = malloc(length > 0 ? length : 1);
    afs_int32 got = 0, n, i;
    afs_uint32 sum = 0;

    /* As the Java kitchen server: a negative length is the application's error, before any bulk data. */
    if (length < 0) {
        free(data);
        return APP_ERROR;
    }
    if (data == NULL)
        return RXGEN_SS_MARSHAL;
    while (got < length && (n = rx_Read(call, data + got, length - got)) > 0)
        got += n;
    for (i = 0; i < got; i++)
        sum = sum * 31 + (unsigned char) data[i];
    if (got > 0 && rx_Write(call, data, got) != got) {
        free(data);
        return RX_CALL_DEAD;
    }
    free(data);
    *received = got;
    *checksum = sum;
    return 0;
}

int
main(int argc, char **argv)
{
    struct rx_securityClass *sc[1];
    struct rx_service *service;

    if (argc != 2) {
        fprintf(stderr, "usage: ks_server PORT\n");
        return 2;
    }
    if (rx_Init(htons(atoi(argv[1]))) != 0) {
        fprintf(stderr, "ks_server: rx_Init failed\n");
        return 1;
    }
    sc[0] = rxnull_NewServerSecurityObject();
    service = rx_NewService(0, 4711, "kitchen", sc, 1, KS_ExecuteRequest);
    if (service == NULL) {
        fprintf(stderr, "ks_server: rx_NewService failed\n");
        return 1;
    }
    rx_SetMaxProcs(service, 8);
    printf("ks_server: service 4711 on udp %s\n", argv[1]);
    fflush(stdout);
    rx_StartServer(1);
    return 0;
}
