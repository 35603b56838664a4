// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf;

import org.rx4j.perf.protocol.CNumbers;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a numeric flag as OpenAFS rxperf does (strtol base 0: decimal, {@code 0x} hex, leading-0 octal), into an int.
 * Ranges are checked later by {@link FlagCheck}, so that the message can give the allowed range.
 */
public final class CIntConverter implements ITypeConverter<Integer> {
    /**
     * Converts one flag value.
     *
     * @param value the text after the flag
     * @return the number
     * @throws TypeConversionException {@code 'x' is not a number} or {@code 'x' is out of range}; picocli prefixes
     *     {@code Invalid value for option '-b': }
     */
    @Override
    public Integer convert(String value) {
        long number;
        try {
            number = CNumbers.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a number");
        }
        if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
            throw new TypeConversionException("'" + value + "' is out of range");
        }
        return (int) number;
    }
}
