/// @brief MultipartReader: parts whole whatever the chunking, quoted boundaries, preamble and epilogue, a body cut
/// short, a wrong type.
#include "lucent/pacs/MultipartReader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using lucent::pacs::MultipartError;
using lucent::pacs::MultipartReader;

namespace {

/// A body as RFC 2046 writes it, built here by hand (not by the reader's rules).
const QByteArray kBody =
    "preamble to ignore\r\n"
    "--b0und\r\nContent-Type: application/dicom\r\nX-Extra:  yes \r\n\r\nfirst\r\n--b0un\r\n"
    "\r\n--b0und\r\nContent-Type: application/dicom\r\n\r\n\r\n\r\nsecond\r\n"
    "\r\n--b0und\r\n\r\nthird, no headers"
    "\r\n--b0und--\r\nepilogue --b0und\r\n";

struct Part {
    QByteArray type, extra, body;
};

std::vector<Part> readInChunks(const QByteArray& body, int chunk, const QByteArray& contentType) {
    std::vector<Part> parts;
    MultipartReader reader(contentType, [&](const QMap<QByteArray, QByteArray>& headers, const QByteArray& data) {
        parts.push_back({headers.value("content-type"), headers.value("x-extra"), data});
    });
    for (qsizetype at = 0; at < body.size(); at += chunk) reader.feed(body.mid(at, chunk));
    reader.finish();
    return parts;
}

}  // namespace

TEST(MultipartReader, GivesEveryPartWholeWhateverTheChunks) {
    for (const int chunk : {1, 2, 3, 7, 8, 9, 64, 100000}) {
        const std::vector<Part> parts =
            readInChunks(kBody, chunk, "multipart/related; type=\"application/dicom\"; boundary=\"b0und\"");
        ASSERT_EQ(parts.size(), 3u) << "chunk " << chunk;
        EXPECT_EQ(parts[0].body, "first\r\n--b0un\r\n") << "chunk " << chunk;
        EXPECT_EQ(parts[0].type, "application/dicom");
        EXPECT_EQ(parts[0].extra, "yes");
        EXPECT_EQ(parts[1].body, "\r\n\r\nsecond\r\n") << "chunk " << chunk;
        EXPECT_EQ(parts[2].body, "third, no headers") << "chunk " << chunk;
        EXPECT_TRUE(parts[2].type.isEmpty());
    }
}

TEST(MultipartReader, ReadsTheBoundaryQuotedOrNot) {
    EXPECT_EQ(MultipartReader::boundaryOf("multipart/related; boundary=abc; type=x"), "abc");
    EXPECT_EQ(MultipartReader::boundaryOf("multipart/related;type=\"a;b\";BOUNDARY=\"q r\""), "q r");
    EXPECT_TRUE(MultipartReader::boundaryOf("multipart/related; type=x").isEmpty());
}

TEST(MultipartReader, ABodyCutShortIsAnErrorNotFewerParts) {
    const QByteArray cut = kBody.left(kBody.indexOf("\r\n--b0und--"));
    EXPECT_THROW(readInChunks(cut, 5, "multipart/related; boundary=b0und"), MultipartError);
    EXPECT_THROW(readInChunks(QByteArray(), 5, "multipart/related; boundary=b0und"), MultipartError);
}

TEST(MultipartReader, RefusesAnAnswerThatIsNotMultipart) {
    EXPECT_THROW(MultipartReader("application/dicom+json", {}), MultipartError);
    EXPECT_THROW(MultipartReader("multipart/related; type=\"application/dicom\"", {}), MultipartError);
}
