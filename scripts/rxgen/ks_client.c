// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

/*
 * A C client for rx-gen's kitchen sink, built on the stubs Debian's rxgen generates from kitchen.xg and on
 * libafsrpc. It calls every proc of the Java server that KitchenSinkTest runs (service 4711) and of its
 * hostile service (4712), and checks the answers the Java server gives (KitchenLoopback.Impl).
 *
 * Usage: ks_client HOST PORT      exit 0 when every check passes; one line per check on stdout.
 */
#include <afsconfig.h>
#include <afs/param.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <rx/rx.h>
#include <rx/rx_null.h>
#include <rx/xdr.h>
#include "kitchen.h"

static int failures;

static void
check(int ok, const char *what, long got)
{
    printf("%s %s (%ld)\n", ok ? "PASS" : "FAIL", what, got);
    if (!ok)
        failures++;
}

/* The same two XDR routines ks_server.c adds (libafsrpc has none for unsigned short and bool). */
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

/* Two XDR values are equal when they encode to the same bytes. */
static int
xdr_equal(xdrproc_t proc, void *a, void *b)
{
    u_int cap = 1 << 20, la, lb;
    char *ba = calloc(1, cap), *bb = calloc(1, cap);
    XDR x;
    int same;

    xdrmem_create(&x, ba, cap, XDR_ENCODE);
    same = proc(&x, a);
    la = xdr_getpos(&x);
    xdrmem_create(&x, bb, cap, XDR_ENCODE);
    same = same && proc(&x, b);
    lb = xdr_getpos(&x);
    same = same && la == lb && memcmp(ba, bb, la) == 0;
    free(ba);
    free(bb);
    return same;
}

/*
 * KS_Echo by hand with rxgen's own xdr_ks_name: rxgen's generated client stub passes the address of the decayed
 * array parameter to xdr_ks_name (a char ** where a ks_name * belongs; gcc warns), so it sends and reads the
 * wrong memory. Same call, same bytes, done right.
 */
static afs_int32
echo(struct rx_connection *conn, afs_int32 a, ks_name *n, afs_int32 *a2, ks_name *n2)
{
    struct rx_call *call = rx_NewCall(conn);
    XDR x;
    int op = 1;
    afs_int32 code = 0;

    xdrrx_create(&x, call, XDR_ENCODE);
    if (!xdr_int(&x, &op) || !xdr_afs_int32(&x, &a) || !xdr_ks_name(&x, n))
        code = RXGEN_CC_MARSHAL;
    x.x_op = XDR_DECODE;
    if (code == 0 && (!xdr_afs_int32(&x, a2) || !xdr_ks_name(&x, n2)))
        code = RXGEN_CC_UNMARSHAL;
    return rx_EndCall(call, code);
}

static void
fill_everything(ks_everything *e)
{
    static ks_point points[300];
    static afs_int32 ids[KS_MAXLIST];
    static ks_name names[4];
    static char blob[KS_MAXBLOB];
    static ks_node n3 = {3, NULL}, n2 = {2, &n3}, n1 = {1, &n2};
    static ks_point maybe = {3, 4};
    static char label[KS_MAXNAME + 1];
    int i;

    memset(e, 0, sizeof(*e));
    e->i32 = -5;
    e->u32 = 0xFFFFFFF0u;
    e->i64 = -1234567890123LL;
    e->u64 = 0xFFFFFFFFFFFFFFFFULL;
    e->s16 = -300;
    e->u16 = 0xFFFE;
    e->c8 = -3;
    e->u8 = 0xF0;
    e->flag = 1;
    e->color = KS_BLUE;
    memset(e->name, 'n', KS_MAXNAME - 1);
    memset(label, 'x', KS_MAXNAME);
    e->label = label;
    e->free = "free text";
    memcpy(e->fixed, "\1\2\3\4\5\6", 6);
    for (i = 0; i < KS_MAXBLOB; i++)
        blob[i] = (char) i;
    e->blob.blob_len = KS_MAXBLOB;
    e->blob.blob_val = blob;
    e->triple[0] = 7; e->triple[1] = 8; e->triple[2] = 9;
    for (i = 0; i < KS_MAXLIST; i++)
        ids[i] = i * 1000;
    e->ids.ks_idlist_len = KS_MAXLIST;
    e->ids.ks_idlist_val = ids;
    for (i = 0; i < 300; i++) {
        points[i].x = i;
        points[i].y = -i;
    }
    e->points.points_len = 300;
    e->points.points_val = points;
    e->maybe = &maybe;
    e->list = &n1;
    e->inner.color = KS_GREEN;
    e->inner.ks_inner_u.shape.kind = 99;
    e->inner.ks_inner_u.shape.ks_shape_u.label = label;
    for (i = 0; i < 4; i++)
        memset(names[i], 'a' + i, KS_MAXNAME - 1);
    e->names.names_len = 4;
    e->names.names_val = names;
    memcpy(e->key, "\0\377\2\200\177\0\0\0", 8);
}

int
main(int argc, char **argv)
{
    struct rx_securityClass *sc;
    struct rx_connection *conn, *hostile;
    struct rx_call *call;
    afs_int32 a2, code, received;
    afs_uint32 checksum, sum;
    afs_int64 total;
    ks_name n2, longest, abc = "abc", x = "x";
    char *full = NULL, data[100000], back[100000];
    ks_everything in, out;
    ks_shape s, shapeback;
    ks_inner inner;
    ks_idlist ids;
    afs_int32 idv[KS_MAXLIST + 1];
    ks_blob blob;
    char bytes[KS_MAXBLOB];
    int i, n, got;
    afs_uint32 host;

    if (argc != 3) {
        fprintf(stderr, "usage: ks_client HOST PORT\n");
        return 2;
    }
    if (rx_Init(0) != 0)
        return 1;
    host = inet_addr(argv[1]);
    sc = rxnull_NewClientSecurityObject();
    conn = rx_NewConnection(host, htons(atoi(argv[2])), 4711, sc, 0);
    hostile = rx_NewConnection(host, htons(atoi(argv[2])), 4712, sc, 0);

    memset(n2, 0, sizeof n2);
    code = echo(conn, 41, &abc, &a2, &n2);
    check(code == 0 && a2 == 42 && strcmp(n2, "cba") == 0, "Echo char[64]", code);
    memset(longest, 'z', sizeof longest);
    longest[KS_MAXNAME - 1] = 0;
    longest[0] = 'a';
    code = echo(conn, 0, &longest, &a2, &n2);
    check(code == 0 && strlen(n2) == KS_MAXNAME - 1 && n2[KS_MAXNAME - 2] == 'a', "Echo 63 chars", code);
    code = echo(conn, -1, &x, &a2, &n2);
    check(code == 123456, "application error from the Java server", code);

    code = KS_Ping(conn);
    check(code == 0, "Ping", code);

    fill_everything(&in);
    memset(&out, 0, sizeof out);
    code = KS_Everything(conn, &in, &out);
    check(code == 0 && xdr_equal((xdrproc_t) xdr_ks_everything, &in, &out), "Everything, full", code);
    memset(&in, 0, sizeof in);
    in.label = "";
    in.free = "";
    in.color = KS_RED;
    in.inner.color = KS_RED;
    memset(&out, 0, sizeof out);
    code = KS_Everything(conn, &in, &out);
    check(code == 0 && xdr_equal((xdrproc_t) xdr_ks_everything, &in, &out), "Everything, empty", code);

    memset(&s, 0, sizeof s);
    s.kind = 1;
    s.ks_shape_u.center.x = 1;
    s.ks_shape_u.center.y = 2;
    inner.color = KS_RED;
    inner.ks_inner_u.red = 5;
    memset(&shapeback, 0, sizeof shapeback);
    code = KS_Shapes(conn, s, &inner, &shapeback);
    check(code == 0 && inner.color == KS_RED && inner.ks_inner_u.red == 6
          && xdr_equal((xdrproc_t) xdr_ks_shape, &s, &shapeback), "Shapes, INOUT union", code);
    s.kind = 7;
    s.ks_shape_u.label = "seven";
    inner.color = KS_GREEN;
    inner.ks_inner_u.shape.kind = 4;
    memset(&shapeback, 0, sizeof shapeback);
    code = KS_Shapes(conn, s, &inner, &shapeback);
    check(code == 0 && inner.color == KS_GREEN && xdr_equal((xdrproc_t) xdr_ks_shape, &s, &inner.ks_inner_u.shape)
          && xdr_equal((xdrproc_t) xdr_ks_shape, &s, &shapeback), "Shapes, nested default arm", code);

    for (i = 0; i < KS_MAXLIST + 1; i++)
        idv[i] = 2147483647 - i;
    ids.ks_idlist_len = KS_MAXLIST;
    ids.ks_idlist_val = idv;
    code = KS_Sum(conn, &ids, &total);
    check(code == 0 && total == 16LL * 2147483647LL - 120, "Sum, 16 ids", code);
    ids.ks_idlist_len = 0;
    code = KS_Sum(conn, &ids, &total);
    check(code == 0 && total == 0, "Sum, empty", code);

    code = KS_Names(conn, "abc", &full);
    check(code == 0 && strcmp(full, "abc/full") == 0, "Names", code);

    for (i = 0; i < KS_MAXBLOB; i++)
        bytes[i] = (char) (i * 7);
    blob.ks_blob_len = KS_MAXBLOB;
    blob.ks_blob_val = bytes;
    code = KS_Blob(conn, &blob);
    check(code == 0 && blob.ks_blob_len == KS_MAXBLOB && blob.ks_blob_val[1] == (char) ~7, "Blob, INOUT 256", code);

    for (i = 0, sum = 0; i < (int) sizeof data; i++) {
        data[i] = (char) (i * 13);
        sum = sum * 31 + (unsigned char) data[i];
    }
    call = rx_NewCall(conn);
    code = StartKS_Transfer(call, sizeof data);
    if (code == 0)
        code = rx_Write(call, data, sizeof data) == sizeof data ? 0 : -1;
    for (got = 0; code == 0 && got < (int) sizeof back; got += n)
        if ((n = rx_Read(call, back + got, sizeof back - got)) <= 0)
            break;
    if (code == 0)
        code = EndKS_Transfer(call, &received, &checksum);
    code = rx_EndCall(call, code);
    check(code == 0 && got == (int) sizeof data && memcmp(data, back, sizeof data) == 0
          && received == (afs_int32) sizeof data && checksum == sum, "Transfer, split, 100000 bytes each way", code);

    /* a hostile argument length: the Java server refuses it with RXGEN_SS_UNMARSHAL */
    call = rx_NewCall(conn);
    {
        afs_int32 raw[2] = {htonl(5), htonl(0x7fffffff)};
        rx_Write(call, (char *) raw, sizeof raw);
        rx_Read(call, (char *) raw, 4);
    }
    code = rx_EndCall(call, 0);
    check(code == RXGEN_SS_UNMARSHAL, "hostile argument length refused by the Java server", code);

    /* a hostile result length from the Java hostile service: refused by this C client */
    full = NULL;
    code = KS_Names(hostile, "x", &full);
    check(code == RXGEN_CC_UNMARSHAL, "hostile result length refused by the C client", code);

    printf("%d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
