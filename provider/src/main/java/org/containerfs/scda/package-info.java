/**
 * The scda plug-in (libsc's checkpoint format, plus the parts only the paper specifies: V sections,
 * the compression convention and MIME line breaks).
 *
 * <h2>Tree</h2>
 * {@code /NNNN.<T>.<user string>} (0-based, at least 4 digits; the user string through the shared
 * name codec, an empty one drops the dot). I and B sections are files; A and V sections are
 * directories of element files {@code NNNNNN}. A compressed pair (paper section 3) is one logical
 * section of its logical type, shown decoded; env {@code decode=false} shows every raw section.
 *
 * <h2>Attribute view {@code scda}</h2>
 * Root: {@code format magic version vendor userString sections rawSections decode lenient size end
 * damage uncommittedTail damageOffset tornTail} (damageOffset: where the damage or the uncommitted tail starts). Section: {@code type userString index rawIndex} then {@code size}
 * (I, B), {@code count elementSize} (A) or {@code count sizes} (V), then {@code headerOffset
 * dataOffset dataLength paddingLength compressed} and, for a pair, {@code compressedRawIndex
 * compressedHeaderOffset} ({@code compressedSize} for B). Element: {@code type index section size
 * dataOffset compressed} ({@code compressedSize}).
 *
 * <h2>Reading</h2>
 * Opening walks the section headers (plus each padding and, for V, the size entries); data is read
 * only when a file is read. Strict by default: counts are 1 to 26 digits without leading zeros,
 * user strings at most 58 bytes, fixed-length and data paddings exactly in the Unix (libsc) or MIME
 * form of the paper. {@code lenient=true} also accepts what libsc's reader accepts: white space,
 * a sign, leading zeros and trailing junk in counts ({@code sscanf("%llu")}), zero or one dash in a
 * fixed-length padding (so a 59-byte user string), the LF-first data padding after LF-terminated
 * data, and any line-break byte in encoded text. Deliberate differences to libsc in both modes: V
 * sections and the convention are read; MIME padding is accepted; a count field with more than 26
 * characters or a user string of 60 is rejected (libsc overflows a buffer). Damage after the last
 * good section is listed in the root attributes (env {@code strict=true} makes the open fail with
 * it); every rejection is a {@link org.containerfs.spi.ContainerFormatException} (a truncation a
 * {@link org.containerfs.spi.TruncatedDataException}, a bad Adler-32 a
 * {@link org.containerfs.spi.ChecksumMismatchException}) naming the section, the byte offset and
 * the rule.
 *
 * <h2>Writing</h2>
 * {@code create=true} writes the file header from env {@code vendor} and {@code userString}.
 * Sections are appended under the next number: files {@code NNNN.I.<user>} (exactly 32 bytes) and
 * {@code NNNN.B.<user>}, committed when their channel closes; directories {@code NNNN.A.<user>}
 * (optional {@code scda:elementSize}, else the first element's size) and {@code NNNN.V.<user>},
 * whose element files are written in order and which are committed when the next section is
 * created, on {@code Files.setAttribute(dir, "scda:commit", true)} (also on the root), or when the
 * file system closes. {@code scda:encode=true} as a {@code FileAttribute} (or env {@code encode})
 * writes the compressed convention; env {@code lineBreak=mime} writes MIME line breaks. The commit
 * protocol and the torn-tail recovery are described in {@link org.containerfs.scda.ScdaWriter}.
 */
package org.containerfs.scda;
