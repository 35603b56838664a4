// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.security.rxkad.crypto;

import io.netty.buffer.ByteBuf;

/**
 * fcrypt, rxkad's block cipher (docs/security.md "fcrypt"): a 64-bit block, 16 Feistel rounds, a 56-bit key (the
 * seven high bits of each of the 8 key bytes; the low bit of each byte is DES parity and is ignored) and four
 * 256-entry byte S-boxes.
 *
 * <p>An instance is one key schedule: sixteen 32-bit round keys, the low 32 bits of the 56-bit key rotated right by
 * 11 bits per round. It never changes after construction and is safe to share between threads. Blocks are
 * handled as {@code long} values whose high 32 bits are the block's first four bytes (big-endian, as on the wire),
 * so encrypting and decrypting allocate nothing; the {@link ByteBuf} and {@code byte[]} forms read and write in
 * place at an index and neither retain nor release the buffer.
 *
 * <p>Round function: the half-block is XORed with the round key; its four bytes index the four S-boxes, the four
 * output bytes are placed in a fixed permutation and the word is rotated right by 5 bits. The permutation and the
 * rotation are folded into four 32-bit tables built once, so a round is four lookups and three XORs.
 */
public final class Fcrypt {
    /** Bytes in one fcrypt block. */
    public static final int BLOCK_SIZE = 8;

    /** Rounds per block; the key schedule has one 32-bit key per round. */
    private static final int ROUNDS = 16;

    /** S-box 0: 256 byte values as hex, in index order (fcrypt's published table). */
    private static final String SBOX0 =
            "ea7fb2649db0d911cd8686910ab293060e06d26573c52860f220b5387eda9fe3" +
            "d2cfc43c61ff4a4a35acaa5f2bbbbc534e9d78a3dc093210c66f66d6aba9affd" +
            "3b95e8349a8172809cf3ecda9f2676153e554dde84eeadc7f16b3dd30449aa24" +
            "0b8a83bafa85a0a8b1d401d87064f051d2c3a7758ca564ef104eb7c66103eb44" +
            "3de5b35baed5ad1dfa5a1e33ab93a2b7e7a845a4cd296344b6697e2e6203c8e0" +
            "17bbc7f33f36ba718e97656069b6f6e66ee08159e8afdd952299fd63197461b1" +
            "b65bae54b370ffc63b3ec1d7e10e76e5364f59c7086e82a693c4aa2649e02164" +
            "079f64819cbff9d143f8b6b9f1247503e4b099463df5d1397212f6ba0c0d422e";

    /** S-box 1: 256 byte values as hex, in index order (fcrypt's published table). */
    private static final String SBOX1 =
            "7714a6feb25e8c3e676ca10dc2a2c1856c7b67c623e3f289509c03b773e6e139" +
            "312c279fa56944d62383987d3cb42d991c1f8c20037c5fadf4fa95ca7644cdb6" +
            "b8a1a1be9e548f0b1674318a231704fa7984b1f513abb52eaa0c606b5bc44bbc" +
            "e2af4573fac949cd00927d977a18603dcf5bdec6e2e6bb8b06da08151b886a17" +
            "89d0a9c1c9706be543f468c8d384280a5266a3caf2e37f7a31f788945e9c63d5" +
            "2466fcb35725be8944c4e08f233c1252f51ef4cb18331ff869109dd3f728f830" +
            "055e32c0d519bd458b5bfdbce25ca996ef70cfc22ab361ad804881b71d43d9d7" +
            "45f0d88a597c57c179c734d643dfe4781606da927651e1d47003e02f96918280";

    /** S-box 2: 256 byte values as hex, in index order (fcrypt's published table). */
    private static final String SBOX2 =
            "f03724532a038386d1ec50f042782f6dbf80872795e2c55df96fdbb4656ee724" +
            "c81abb49b50a7db9e8dcb7d945201bce599d6bbd0e8fa3a9bc74a6f67f5fb168" +
            "84bca9fd5550e9b6135e07b89502c0d06a1a85bdb6fdfe173f09a38dfbedda1d" +
            "6d1c6c015ae5713e8b6bbe29eb121934cdb3bd35ea4bd5ae2a795aa532127bdc" +
            "2cd0224bb1855980c0309f73d3144840072d8f800fce0b5eb75eac24944a1815" +
            "05e80277a9c7404589d1eade0c792a996c3e95dd8c7dad6fdcfffd6247b3218a" +
            "ec8e1918b46e3dfd74541e0485d8bc1f56e73a5667d6c8a5f38edeae3749b7fa" +
            "c8f41fe02a9b15d1340eb5e044788459566877a51406f52f8c8a738076b41086";

    /** S-box 3: 256 byte values as hex, in index order (fcrypt's published table). */
    private static final String SBOX3 =
            "a92a4851847e49e2b5b742337d5da61244486d28aa206d57d66b5d72f0925a1b" +
            "538024709acca766a101a54197413182f114cf530da010cc2a7dd2bf4b1adb16" +
            "47f65136edf3b91aa7df2943015470a4bfd40b5344609e23a118684ff02f82c2" +
            "2a41b2420ced0c1d133a3c6e35dc606585e964029a3f9f8796dfbef2cbe56cd4" +
            "5a83bf921b940042cf4b0075ba8f765f5d3a4d091208389517e4011d4ca9cc85" +
            "824c9d2f3b66a13410cd5989a531cf05c884fac7ba4e8b1a19f1a13b181217b0" +
            "988d0b23c33a2d20df13a0a84c0d6c2f471313521f2df5793da254bd69c86bf3" +
            "0528f1164640b011d3b79549cfc31d8fd8e173dbadc8c9a9a1c2c5e3bafc0e25";

    /** S-box 0 output, placed in bits 8..15 and rotated right by 5: indexed by the input's bits 24..31. */
    private static final int[] SP0 = spread(SBOX0, 8);
    /** S-box 1 output, placed in bits 0..7 and rotated: indexed by the input's bits 16..23. */
    private static final int[] SP1 = spread(SBOX1, 0);
    /** S-box 2 output, placed in bits 16..23 and rotated: indexed by the input's bits 8..15. */
    private static final int[] SP2 = spread(SBOX2, 16);
    /** S-box 3 output, placed in bits 24..31 and rotated: indexed by the input's bits 0..7. */
    private static final int[] SP3 = spread(SBOX3, 24);

    /** The sixteen round keys, round 0 first. */
    private final int[] schedule = new int[ROUNDS];

    /**
     * Builds the key schedule of an 8-byte key.
     *
     * @param key the key as a big-endian long (first key byte in bits 56..63); parity bits are ignored
     */
    public Fcrypt(long key) {
        long k56 = 0;
        for (int i = 0; i < 8; i++) {
            int b = (int) (key >>> (56 - 8 * i)) & 0xff;
            k56 = (k56 << 7) | (b >>> 1);
        }
        for (int i = 0; i < ROUNDS; i++) {
            schedule[i] = (int) k56;
            k56 = (k56 >>> 11) | ((k56 & 0x7ffL) << 45);
        }
    }

    /**
     * Builds the key schedule of an 8-byte key given as bytes.
     *
     * @param key 8 key bytes, in wire order
     * @return the key schedule
     * @throws IllegalArgumentException if {@code key} is not 8 bytes long
     */
    public static Fcrypt of(byte[] key) {
        if (key.length != BLOCK_SIZE) {
            throw new IllegalArgumentException("fcrypt key must be 8 bytes, got " + key.length);
        }
        return new Fcrypt(Blocks.get(key, 0));
    }

    /**
     * Encrypts one block.
     *
     * @param block 8 bytes as a big-endian long
     * @return the ciphertext block, same layout
     */
    public long encrypt(long block) {
        int l = (int) (block >>> 32);
        int r = (int) block;
        int[] k = schedule;
        for (int i = 0; i < ROUNDS; i += 2) {
            l ^= f(r ^ k[i]);
            r ^= f(l ^ k[i + 1]);
        }
        return ((long) l << 32) | (r & 0xffffffffL);
    }

    /**
     * Decrypts one block: the inverse of {@link #encrypt}.
     *
     * @param block 8 ciphertext bytes as a big-endian long
     * @return the plaintext block, same layout
     */
    public long decrypt(long block) {
        int l = (int) (block >>> 32);
        int r = (int) block;
        int[] k = schedule;
        for (int i = ROUNDS - 1; i > 0; i -= 2) {
            r ^= f(l ^ k[i]);
            l ^= f(r ^ k[i - 1]);
        }
        return ((long) l << 32) | (r & 0xffffffffL);
    }

    /**
     * Encrypts the block at {@code index} in place (ECB, one block).
     *
     * @param buf the buffer; bytes index..index+7 are overwritten; the caller keeps ownership
     * @param index absolute index of the block
     * @throws IndexOutOfBoundsException if the 8 bytes are not inside the buffer's capacity
     */
    public void encrypt(ByteBuf buf, int index) {
        buf.setLong(index, encrypt(buf.getLong(index)));
    }

    /**
     * Decrypts the block at {@code index} in place (ECB, one block).
     *
     * @param buf the buffer; bytes index..index+7 are overwritten; the caller keeps ownership
     * @param index absolute index of the block
     * @throws IndexOutOfBoundsException if the 8 bytes are not inside the buffer's capacity
     */
    public void decrypt(ByteBuf buf, int index) {
        buf.setLong(index, decrypt(buf.getLong(index)));
    }

    /** The round function of one 32-bit half. */
    private static int f(int x) {
        return SP0[x >>> 24] ^ SP1[(x >>> 16) & 0xff] ^ SP2[(x >>> 8) & 0xff] ^ SP3[x & 0xff];
    }

    /** Builds a round table: each S-box byte shifted into its output position, then rotated right by 5. */
    private static int[] spread(String hex, int shift) {
        int[] t = new int[256];
        for (int i = 0; i < 256; i++) {
            int v = Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
            t[i] = Integer.rotateRight(v << shift, 5);
        }
        return t;
    }
}
