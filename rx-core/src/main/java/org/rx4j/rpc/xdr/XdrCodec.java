// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import java.io.IOException;
import java.util.List;
import org.rx4j.rpc.errors.RxException;

/**
 * Encodes and decodes one XDR type (RFC 4506), so that arrays and optional data of that type can be
 * written by {@link XdrWriter#writeArray} and read by {@link XdrReader#readArray}. rxgen-style structs
 * implement it, usually with {@link #of} and two method references.
 *
 * <p>Errors: {@link #encode} raises {@link RxException} with the writer's marshal code for a value it
 * cannot encode ({@link XdrWriter#marshalError}); {@link #decode} raises {@link RxException} with the
 * reader's unmarshal code for bytes it cannot decode ({@link XdrReader#unmarshalError}). Both pass on
 * other {@link IOException}s of the underlying stream.
 *
 * @param <T> the Java type of the value
 */
public interface XdrCodec<T> {

    /**
     * Writes one value.
     *
     * @param writer the destination
     * @param value the value; the codec decides whether null is allowed (the stock codecs refuse it)
     * @throws IOException an {@link RxException} with the marshal code, or a stream failure
     */
    void encode(XdrWriter writer, T value) throws IOException;

    /**
     * Reads one value.
     *
     * @param reader the source
     * @return the value
     * @throws IOException an {@link RxException} with the unmarshal code, or a stream failure
     */
    T decode(XdrReader reader) throws IOException;

    /**
     * The encoding half of a codec, for method references.
     *
     * @param <T> the value type
     */
    @FunctionalInterface
    interface Encoder<T> {
        /**
         * @param writer the destination
         * @param value the value
         * @throws IOException as {@link XdrCodec#encode}
         */
        void encode(XdrWriter writer, T value) throws IOException;
    }

    /**
     * The decoding half of a codec, for method references.
     *
     * @param <T> the value type
     */
    @FunctionalInterface
    interface Decoder<T> {
        /**
         * @param reader the source
         * @return the value
         * @throws IOException as {@link XdrCodec#decode}
         */
        T decode(XdrReader reader) throws IOException;
    }

    /**
     * Joins two halves into a codec, e.g. {@code XdrCodec.of(Fid::encode, Fid::decode)}.
     *
     * @param encoder writes a value
     * @param decoder reads a value
     * @param <T> the value type
     * @return a codec delegating to both
     */
    static <T> XdrCodec<T> of(Encoder<T> encoder, Decoder<T> decoder) {
        return new XdrCodec<>() {
            @Override
            public void encode(XdrWriter writer, T value) throws IOException {
                encoder.encode(writer, value);
            }

            @Override
            public T decode(XdrReader reader) throws IOException {
                return decoder.decode(reader);
            }
        };
    }

    /** XDR {@code int}: 4 bytes, big-endian two's complement. Null is a marshal error. */
    XdrCodec<Integer> INT32 = of(
            (w, v) -> w.writeInt(requireValue(w, v, "int")),
            XdrReader::readInt);

    /** XDR {@code unsigned int}: 4 bytes, values 0..4,294,967,295 as a Long. Null or out of range is a marshal error. */
    XdrCodec<Long> UINT32 = of(
            (w, v) -> w.writeUnsignedInt(requireValue(w, v, "unsigned int")),
            XdrReader::readUnsignedInt);

    /** XDR {@code hyper}: 8 bytes, big-endian two's complement. Null is a marshal error. */
    XdrCodec<Long> INT64 = of(
            (w, v) -> w.writeLong(requireValue(w, v, "hyper")),
            XdrReader::readLong);

    /** XDR {@code bool}: 4 bytes, 0 or 1 (any other value is an unmarshal error). Null is a marshal error. */
    XdrCodec<Boolean> BOOL = of(
            (w, v) -> w.writeBoolean(requireValue(w, v, "bool")),
            XdrReader::readBoolean);

    /**
     * XDR {@code string<maxLength>} as ISO-8859-1 (one byte per char, see {@link XdrWriter#writeString}).
     *
     * @param maxLength most bytes allowed, 0..{@link XdrReader#MAX_LENGTH}
     * @return a codec; null, chars above U+00FF or too long strings are marshal errors
     * @throws IllegalArgumentException if maxLength is out of range
     */
    static XdrCodec<String> string(int maxLength) {
        XdrReader.checkMaximum(maxLength);
        return of((w, v) -> w.writeString(v, maxLength), r -> r.readString(maxLength));
    }

    /**
     * XDR variable-length {@code opaque<maxLength>}.
     *
     * @param maxLength most bytes allowed, 0..{@link XdrReader#MAX_LENGTH}
     * @return a codec; null or too long arrays are marshal errors
     * @throws IllegalArgumentException if maxLength is out of range
     */
    static XdrCodec<byte[]> opaque(int maxLength) {
        XdrReader.checkMaximum(maxLength);
        return of((w, v) -> w.writeOpaque(v, maxLength), r -> r.readOpaque(maxLength));
    }

    /**
     * XDR variable-length array {@code T<maxLength>}, for nesting arrays in arrays.
     *
     * @param maxLength most elements allowed, 0..{@link XdrReader#MAX_LENGTH}
     * @param element the element codec
     * @param <T> the element type
     * @return a codec of lists (decoded lists are mutable {@code ArrayList}s)
     * @throws IllegalArgumentException if maxLength is out of range
     */
    static <T> XdrCodec<List<T>> array(int maxLength, XdrCodec<T> element) {
        XdrReader.checkMaximum(maxLength);
        return of((w, v) -> w.writeArray(v, maxLength, element), r -> r.readArray(maxLength, element));
    }

    /**
     * XDR optional-data {@code T *}: a bool, then the value when the bool is TRUE. Null encodes as absent.
     *
     * @param element the codec of the present value
     * @param <T> the value type
     * @return a codec whose decode returns null for an absent value
     */
    static <T> XdrCodec<T> optional(XdrCodec<T> element) {
        return of((w, v) -> w.writeOptional(v, element), r -> r.readOptional(element));
    }

    private static <V> V requireValue(XdrWriter writer, V value, String type) throws RxException {
        if (value == null) {
            throw writer.marshalError("null " + type);
        }
        return value;
    }
}
