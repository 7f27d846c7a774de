// crypto-basics vectors (suite 2) and the behaviour of the primitives around them.
#include <boost/test/unit_test.hpp>

#include "vectors.hpp"
#include "voice/e2ee/crypto.hpp"

using namespace platformpp::voice::e2ee;
using e2ee_test::field;

BOOST_AUTO_TEST_SUITE(crypto_basics)

BOOST_AUTO_TEST_CASE(every_suite_2_vector_passes) {
  int checked = 0;
  for (const auto& v : e2ee_test::load_vectors("crypto-basics")) {
    const auto& o = v.as_object();
    BOOST_REQUIRE_EQUAL(o.at("cipher_suite").as_int64(), 2);

    const auto& rh = o.at("ref_hash").as_object();
    BOOST_TEST(ref_hash(std::string(rh.at("label").as_string()), field(rh, "value")) == field(rh, "out"));

    const auto& ewl = o.at("expand_with_label").as_object();
    BOOST_TEST(expand_with_label(field(ewl, "secret"), std::string(ewl.at("label").as_string()), field(ewl, "context"),
                                 static_cast<std::size_t>(ewl.at("length").as_int64())) == field(ewl, "out"));

    const auto& ds = o.at("derive_secret").as_object();
    BOOST_TEST(derive_secret(field(ds, "secret"), std::string(ds.at("label").as_string())) == field(ds, "out"));

    const auto& dts = o.at("derive_tree_secret").as_object();
    BOOST_TEST(derive_tree_secret(field(dts, "secret"), std::string(dts.at("label").as_string()),
                                  static_cast<std::uint32_t>(dts.at("generation").as_int64()),
                                  static_cast<std::size_t>(dts.at("length").as_int64())) == field(dts, "out"));

    const auto& swl = o.at("sign_with_label").as_object();
    const std::string sign_label(swl.at("label").as_string());
    BOOST_TEST(signature_public_key(field(swl, "priv")) == field(swl, "pub"));
    BOOST_TEST(verify_with_label(field(swl, "pub"), sign_label, field(swl, "content"), field(swl, "signature")));
    const Bytes ours = sign_with_label(field(swl, "priv"), sign_label, field(swl, "content"));
    BOOST_TEST(verify_with_label(field(swl, "pub"), sign_label, field(swl, "content"), ours));
    BOOST_TEST(!verify_with_label(field(swl, "pub"), sign_label + "x", field(swl, "content"), ours));

    const auto& enc = o.at("encrypt_with_label").as_object();
    const std::string enc_label(enc.at("label").as_string());
    BOOST_TEST(hpke_public_key(field(enc, "priv")) == field(enc, "pub"));
    BOOST_TEST(decrypt_with_label(field(enc, "priv"), enc_label, field(enc, "context"), field(enc, "kem_output"),
                                  field(enc, "ciphertext")) == field(enc, "plaintext"));
    const HpkeCiphertext ct = encrypt_with_label(field(enc, "pub"), enc_label, field(enc, "context"),
                                                 field(enc, "plaintext"));
    BOOST_TEST(decrypt_with_label(field(enc, "priv"), enc_label, field(enc, "context"), ct.kem_output,
                                  ct.ciphertext) == field(enc, "plaintext"));
    ++checked;
  }
  BOOST_TEST(checked == 1);
}

BOOST_AUTO_TEST_CASE(hkdf_matches_rfc5869_case_1) {
  const Bytes ikm(22, 0x0b);
  const Bytes salt = e2ee_test::hex("000102030405060708090a0b0c");
  const Bytes info = e2ee_test::hex("f0f1f2f3f4f5f6f7f8f9");
  const Bytes prk = hkdf_extract(salt, ikm);
  BOOST_TEST(e2ee_test::to_hex(prk) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
  BOOST_TEST(e2ee_test::to_hex(hkdf_expand(prk, info, 42)) ==
             "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
}

// RFC 9180 appendix A.3.1: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, base mode, sequence 0.
BOOST_AUTO_TEST_CASE(hpke_matches_rfc9180_a3_base_vector) {
  using e2ee_test::hex;
  const Bytes ikm_r = hex("668b37171f1072f3cf12ea8a236a45df23fc13b82af3609ad1e354f6ef817550");
  const Bytes sk_r = hex("f3ce7fdae57e1a310d87f1ebbde6f328be0a99cdbcadf4d6589cf29de4b8ffd2");
  const Bytes pk_r = hex(
      "04fe8c19ce0905191ebc298a9245792531f26f0cece2460639e8bc39cb7f706a826a779b4cf969b8a0e539c7f62fb3d30ad6aa8f80e30f1d128aafd68a2ce72ea0");
  const Bytes enc = hex(
      "04a92719c6195d5085104f469a8b9814d5838ff72b60501e2c4466e5e67b325ac98536d7b61a1af4b78e5b7f951c0900be863c403ce65c9bfcb9382657222d18c4");
  const Bytes info = hex("4f6465206f6e2061204772656369616e2055726e");  // "Ode on a Grecian Urn"
  const Bytes aad = hex("436f756e742d30");                                // "Count-0"
  const Bytes ct = hex("5ad590bb8baa577f8619db35a36311226a896e7342a6d836d8b7bcd2f20b6c7f9076ac232e3ab2523f39513434");
  const Bytes pt = hex("4265617574792069732074727574682c20747275746820626561757479");  // "Beauty is truth, truth beauty"
  const HpkeKeyPair derived = hpke_derive_key_pair(ikm_r);
  BOOST_TEST(derived.private_key == sk_r);
  BOOST_TEST(derived.public_key == pk_r);
  BOOST_TEST(hpke_open_base(sk_r, enc, info, aad, ct) == pt);
  BOOST_CHECK_THROW(hpke_open_base(sk_r, enc, info, Bytes{}, ct), Error);
}

BOOST_AUTO_TEST_CASE(hpke_rejects_a_tampered_ciphertext_and_a_wrong_key) {
  const HpkeKeyPair kp = hpke_generate_key_pair();
  const Bytes pt = {1, 2, 3};
  HpkeCiphertext ct = encrypt_with_label(kp.public_key, "L", Bytes{}, pt);
  BOOST_TEST(decrypt_with_label(kp.private_key, "L", Bytes{}, ct.kem_output, ct.ciphertext) == pt);
  BOOST_CHECK_THROW(decrypt_with_label(kp.private_key, "M", Bytes{}, ct.kem_output, ct.ciphertext), Error);
  ct.ciphertext[0] ^= 1;
  BOOST_CHECK_THROW(decrypt_with_label(kp.private_key, "L", Bytes{}, ct.kem_output, ct.ciphertext), Error);
  BOOST_CHECK_THROW(decrypt_with_label(kp.private_key, "L", Bytes{}, Bytes(65, 4), ct.ciphertext), Error);
}

BOOST_AUTO_TEST_CASE(derive_key_pair_is_deterministic_and_valid) {
  const Bytes ikm(32, 7);
  const HpkeKeyPair a = hpke_derive_key_pair(ikm);
  BOOST_TEST(a.private_key == hpke_derive_key_pair(ikm).private_key);
  BOOST_TEST(a.public_key == hpke_public_key(a.private_key));
  BOOST_TEST(a.private_key != hpke_derive_key_pair(Bytes(32, 8)).private_key);
}

BOOST_AUTO_TEST_CASE(aes_gcm_truncated_tag_round_trips_in_place_and_detects_tampering) {
  AesGcm128 gcm(Bytes(16, 9));
  const Bytes nonce(12, 1);
  Bytes buf = {10, 20, 30, 40};
  const Bytes original = buf;
  std::uint8_t tag[8];
  gcm.seal(nonce, Bytes{5}, buf, buf.data(), tag, 8);
  BOOST_TEST(buf != original);
  Bytes copy = buf;
  BOOST_TEST(gcm.open(nonce, Bytes{5}, copy, BytesView(tag, 8), copy.data()));
  BOOST_TEST(copy == original);
  buf[0] ^= 1;
  BOOST_TEST(!gcm.open(nonce, Bytes{5}, buf, BytesView(tag, 8), buf.data()));
  BOOST_CHECK_THROW(aead_open(Bytes(16, 9), nonce, Bytes{}, Bytes(15, 0)), Error);
}

BOOST_AUTO_TEST_CASE(out_of_range_private_keys_are_refused) {
  BOOST_CHECK_THROW(signature_public_key(Bytes(32, 0)), Error);
  BOOST_CHECK_THROW(signature_public_key(Bytes(32, 0xff)), Error);
  BOOST_CHECK_THROW(signature_public_key(Bytes(31, 1)), Error);
  BOOST_TEST(!verify_with_label(Bytes(65, 0), "L", Bytes{}, Bytes(70, 0)));
}

BOOST_AUTO_TEST_SUITE_END()
