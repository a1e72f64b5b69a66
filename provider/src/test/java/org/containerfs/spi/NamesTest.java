package org.containerfs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The name codec against the rules of tree-mapping.md ("Names" and "Long names"). */
class NamesTest {

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Arguments> byteRules() {
        return Stream.of(
                Arguments.of(utf8("ildg-binary-data"), "ildg-binary-data"),
                Arguments.of(utf8("a%b"), "a%25b"),
                Arguments.of(utf8("a/b"), "a%2Fb"),
                Arguments.of(utf8("a\\b"), "a%5Cb"),
                Arguments.of(hex("00011f"), "%00%01%1F"),
                Arguments.of(utf8("tab\there"), "tab%09here"),
                Arguments.of(hex("7f"), "%7F"),
                Arguments.of(utf8(" !\"#$&'()*+,-.:;<=>?@[]^_`{|}~"), " !\"#$&'()*+,-.:;<=>?@[]^_`{|}~"),
                // valid multi-byte UTF-8 stays: 2, 3 and 4 bytes, and C1 controls (valid UTF-8, not control bytes)
                Arguments.of(utf8("größe-Ω-€-\uD83D\uDE00"), "größe-Ω-€-\uD83D\uDE00"),
                Arguments.of(hex("c280"), "\u0080"),
                // invalid UTF-8: lone continuation, truncated sequence, overlong forms, surrogates, > U+10FFFF
                Arguments.of(hex("80"), "%80"),
                Arguments.of(hex("41c3"), "A%C3"),
                Arguments.of(hex("e282"), "%E2%82"),
                Arguments.of(hex("c0af"), "%C0%AF"),
                Arguments.of(hex("e08080"), "%E0%80%80"),
                Arguments.of(hex("eda080"), "%ED%A0%80"),
                Arguments.of(hex("f4908080"), "%F4%90%80%80"),
                Arguments.of(hex("ff"), "%FF"),
                // a broken sequence escapes only its bad bytes; the valid character after it stays
                Arguments.of(hex("c3c3a9"), "%C3é"));
    }

    @ParameterizedTest
    @MethodSource("byteRules")
    void encodeBytesFollowsTheByteRulesAndDecodesBack(byte[] raw, String expected) {
        assertThat(Names.encodeBytes(raw)).isEqualTo(expected);
        assertThat(Names.component(raw)).isEqualTo(expected);
        assertThat(Names.decode(expected)).isEqualTo(raw);
    }

    @Test
    void componentMapsTheSpecialNamesSoTheyCannotBeDotOrDotDotOrEmpty() {
        assertThat(Names.component(new byte[0])).isEqualTo("%");
        assertThat(Names.component(utf8("."))).isEqualTo("%2E");
        assertThat(Names.component(utf8(".."))).isEqualTo("%2E%2E");
        assertThat(Names.component(utf8("..."))).isEqualTo("...");
        assertThat(Names.component(utf8(".hidden"))).isEqualTo(".hidden");
        assertThat(Names.decode("%")).isEmpty();
        assertThat(Names.decode("%2E")).isEqualTo(utf8("."));
        assertThat(Names.decode("%2E%2E")).isEqualTo(utf8(".."));
    }

    @Test
    void prefixedUsesTheByteRulesOnlyAndDropsTheDotForAnEmptyName() {
        assertThat(Names.prefixed("rec04", new byte[0])).isEqualTo("rec04");
        assertThat(Names.prefixed("rec02", utf8(".."))).isEqualTo("rec02...");
        assertThat(Names.prefixed("rec02", utf8("."))).isEqualTo("rec02..");
        assertThat(Names.prefixed("0003.B", utf8("a/b%"))).isEqualTo("0003.B.a%2Fb%25");
        assertThat(Names.prefixed("rec01", utf8("scidac-checksum"))).isEqualTo("rec01.scidac-checksum");
    }

    @Test
    void decodeOfEncodeIsTheIdentityForRandomBytes() {
        Random random = new Random(20261122);
        for (int i = 0; i < 2000; i++) {
            byte[] raw = new byte[random.nextInt(60)];
            random.nextBytes(raw);
            if (i % 3 == 0) {
                // bias towards valid UTF-8 and the bytes the rules single out
                String s = randomText(random, raw.length);
                raw = utf8(s);
            }
            String component = Names.component(raw);
            assertThat(Names.decode(component)).as("component %s", component).isEqualTo(raw);
            String encoded = Names.encodeBytes(raw);
            assertThat(Names.decode(encoded)).isEqualTo(raw);
            assertThat(encoded).doesNotContain("/", "\\", "%%");
            assertThat(encoded.chars()).noneMatch(c -> c < 0x20 || c == 0x7F);
        }
    }

    private static String randomText(Random random, int length) {
        String alphabet = "ab%/\\.\t\u007fé€\uD83D\uDE00-_ ";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int at = random.nextInt(alphabet.length());
            char c = alphabet.charAt(at);
            if (Character.isHighSurrogate(c)) {
                sb.append(c).append(alphabet.charAt(at + 1));
            } else if (!Character.isLowSurrogate(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    @Test
    void decodeRejectsMalformedEscapes() {
        for (String bad : new String[] {"a%", "a%4", "%G1", "%+1", "%-1", "% 1"}) {
            assertThatThrownBy(() -> Names.decode(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bad escape");
        }
    }

    @Test
    void aNameOfExactly255BytesIsKeptWhole() {
        byte[] raw = utf8("x".repeat(255));
        assertThat(Names.component(raw)).isEqualTo("x".repeat(255));
        // with a prefix the limit counts the whole component
        assertThat(Names.prefixed("rec01", utf8("y".repeat(249)))).hasSize(255);
    }

    @Test
    void aLongNameIsCutTo220BytesAndGetsTheHashOfTheRawBytes() {
        byte[] raw = utf8("x".repeat(256));
        String name = Names.component(raw);
        assertThat(name).isEqualTo("x".repeat(220) + "%%" + Names.sha256Hex(raw).substring(0, 32));
        assertThat(name.getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(255);
        assertThat(Names.decode(name)).as("shortened names cannot be decoded").isNull();

        String prefixed = Names.prefixed("rec01", utf8("y".repeat(250)));
        assertThat(prefixed).isEqualTo("rec01." + "y".repeat(214) + "%%" + Names.sha256Hex(utf8("y".repeat(250))).substring(0, 32));
    }

    @Test
    void theCutNeverSplitsAMultiByteCharacter() {
        // 'é' is 2 bytes: 110 of them are exactly 220 bytes, then the cut must stop; with one ASCII
        // byte first, the 110th 'é' would end at byte 221 and must be left out whole
        byte[] raw = utf8("é".repeat(200));
        assertThat(Names.component(raw)).startsWith("é".repeat(110) + "%%");
        byte[] shifted = utf8("a" + "é".repeat(200));
        assertThat(Names.component(shifted)).isEqualTo("a" + "é".repeat(109) + "%%"
                + Names.sha256Hex(shifted).substring(0, 32));
        byte[] emoji = utf8("\uD83D\uDE00".repeat(80)); // 4 bytes each: 55 fit in 220
        assertThat(Names.component(emoji)).startsWith("\uD83D\uDE00".repeat(55) + "%%");
    }

    @Test
    void theCutNeverSplitsAPercentEscape() {
        // "a" then escapes of 3 bytes: 1 + 73*3 = 220 fits; "aa" + 73 escapes would be 221
        byte[] raw = new byte[200];
        raw[0] = 'a';
        byte[] rawTwo = new byte[201];
        rawTwo[0] = 'a';
        rawTwo[1] = 'a';
        assertThat(Names.component(raw)).isEqualTo("a" + "%00".repeat(73) + "%%" + Names.sha256Hex(raw).substring(0, 32));
        assertThat(Names.component(rawTwo)).isEqualTo("aa" + "%00".repeat(72) + "%%"
                + Names.sha256Hex(rawTwo).substring(0, 32));
    }

    @Test
    void longNamesThatDifferOnlyAfterTheCutStayDistinct() {
        byte[] one = utf8("z".repeat(300) + "1");
        byte[] two = utf8("z".repeat(300) + "2");
        assertThat(Names.component(one)).isNotEqualTo(Names.component(two));
        assertThat(Names.component(one)).hasSize(220 + 2 + 32);
    }

    @Test
    void sha256HexIsLowerCaseHex() {
        assertThat(Names.sha256Hex(new byte[0]))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void indexedPadsToTheMinimumWidthAndGrowsPastIt() {
        assertThat(Names.indexed("msg", 1, 2)).isEqualTo("msg01");
        assertThat(Names.indexed("msg", 99, 2)).isEqualTo("msg99");
        assertThat(Names.indexed("msg", 100, 2)).isEqualTo("msg100");
        assertThat(Names.indexed("task", 7, 6)).isEqualTo("task000007");
        assertThat(Names.indexed("", 3, 4)).isEqualTo("0003");
    }

    @Test
    void parseIndexedAcceptsOnlyTheCanonicalForm() {
        assertThat(Names.parseIndexed("msg01", "msg", 2)).isEqualTo(1);
        assertThat(Names.parseIndexed("msg99", "msg", 2)).isEqualTo(99);
        assertThat(Names.parseIndexed("msg100", "msg", 2)).isEqualTo(100);
        assertThat(Names.parseIndexed("msg00", "msg", 2)).isZero();
        for (String notCanonical : new String[] {"msg1", "msg001", "msg0100", "msg", "msg-1", "msg+1", "msgab",
                "msg1a", "MSG01", "rec01", "msg 1", "msg１２", "msg" + "9".repeat(19)}) {
            assertThat(Names.parseIndexed(notCanonical, "msg", 2)).as(notCanonical).isEqualTo(-1);
        }
        for (long n : new long[] {0, 1, 9, 10, 99, 100, 12345, 999_999_999_999L}) {
            assertThat(Names.parseIndexed(Names.indexed("rec", n, 2), "rec", 2)).isEqualTo(n);
        }
    }
}
