// Import of real config.json files from each family (kept in tests/data/hf).

#include "core/hfconfig.h"

#include <QTest>

using namespace vl;

namespace {

std::string sampleText(const QString &name)
{
    const auto text = readTextFile(std::string(VL_TEST_DATA "/hf/") + name.toStdString());
    return text ? *text : std::string();
}

// A config.json of the keys given, then a small Llama's shape.
std::string smallLlamaConfig(const std::string &keys)
{
    return "{" + keys
        + "\"hidden_size\": 2048, \"num_hidden_layers\": 24, \"num_attention_heads\": 16, "
          "\"intermediate_size\": 5632, \"vocab_size\": 151936}";
}

} // namespace

class TestHfConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void families_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<QString>("modeling");       // which block the code-level implementations count
        QTest::addColumn<qint64>("rotaryPositions"); // max_position_embeddings of a rotary model
        QTest::newRow("GPT-2 keys, n_inner null = 4h") << "gpt2.json"
                                                       << "gpt2" << qint64(124'439'808) << "gpt2" << qint64(0);
        QTest::newRow("Llama-2 with _name_or_path")
            << "llama-2-7b.json"
            << "llama-2-7b-hf" << qint64(6'738'415'616) << "llama" << qint64(4096);
        QTest::newRow("Llama-3.1 GQA, untied") << "llama-3.1-8b.json"
                                               << "llama" << qint64(8'030'261'248) << "llama" << qint64(131072);
        QTest::newRow("Mixtral MoE keys") << "mixtral-8x7b.json"
                                          << "mixtral" << qint64(46'702'792'704) << "llama" << qint64(32768);
        QTest::newRow("Qwen2 QKV bias") << "qwen2.5-7b.json"
                                        << "qwen2" << qint64(7'615'616'512) << "llama" << qint64(131072);
        // The Hub's safetensors totals of Qwen/Qwen3-8B and Qwen/Qwen3-30B-A3B.
        QTest::newRow("Qwen3 query/key norms") << "qwen3-8b.json"
                                               << "qwen3" << qint64(8'190'735'360) << "llama" << qint64(40960);
        QTest::newRow("Qwen3-MoE: num_experts, moe_intermediate_size")
            << "qwen3-30b-a3b.json"
            << "qwen3-moe" << qint64(30'532'122'624) << "llama" << qint64(40960);
        // 335,143,938: BertForSequenceClassification as the Hugging Face performance guide trains it.
        QTest::newRow("BERT: token types, pooler, 2-label classifier")
            << "bert-large-uncased.json"
            << "bert" << qint64(335'143'938) << "bert" << qint64(0);
        // 1,414,647,808: Pythia-1.4B's total in Biderman et al. 2023, Table 1.
        QTest::newRow("GPT-NeoX (Pythia): LayerNorm, GELU, biases, untied")
            << "pythia-1.4b.json"
            << "gpt-neox" << qint64(1'414'647'808) << "gpt-neox" << qint64(2048);
        // 999,885,952: the Hub's safetensors total of google/gemma-3-1b-pt.
        QTest::newRow("Gemma-3 text: four norms, query/key norms, tied")
            << "gemma-3-1b.json"
            << "gemma3-text" << qint64(999'885'952) << "llama" << qint64(32768);
        QTest::newRow("Gemma-2 head_dim, four norms, tied")
            << "gemma-2-9b.json"
            << "gemma2" << qint64(9'241'705'984) << "llama" << qint64(8192);
        // 8,537,680,896: Gemma 7B's count in KerasHub's presets (gemma_7b_en); its config.json
        // leaves tie_word_embeddings to GemmaConfig's default, True.
        // 3,821,079,552: Phi-3-mini's total (microsoft/Phi-3-mini-4k-instruct, safetensors).
        QTest::newRow("Phi-3: fused projections, the same weights")
            << "phi-3-mini-4k.json"
            << "phi-3-mini-4k-instruct" << qint64(3'821'079'552) << "llama" << qint64(4096);
        QTest::newRow("Gemma: tied unless the config says otherwise")
            << "gemma-7b.json"
            << "gemma" << qint64(8'537'680'896) << "llama" << qint64(8192);
    }
    void families()
    {
        QFETCH(QString, file);
        QFETCH(QString, id);
        QFETCH(qint64, params);
        QFETCH(QString, modeling);
        QFETCH(qint64, rotaryPositions);
        const auto model = importHfConfig(sampleText(file), file.toStdString());
        QVERIFY2(model.ok(), model.ok() ? "" : model.error().describe().c_str());
        QCOMPARE(QString::fromStdString(model->id), id);
        QCOMPARE(totalParameters(model->arch), params);
        QCOMPARE(QString::fromLatin1(toString(model->arch.modeling)), modeling);
        QCOMPARE(model->arch.rotaryPositions, rotaryPositions);
    }

    // What Gemma's code computes beyond the Llama block, and the windows its layers attend within.
    void gemmaTraits_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("zeroCentered");
        QTest::addColumn<qint64>("norms");
        QTest::addColumn<bool>("softCapping");
        QTest::addColumn<qint64>("slidingWindow");
        QTest::addColumn<QString>("mlp"); // from hidden_act or hidden_activation
        QTest::newRow("Gemma: 1 + weight, two norms, hidden_act gelu")
            << "gemma-7b.json" << true << qint64(2) << false << qint64(0) << "geglu";
        QTest::newRow("Gemma-2: four norms, soft-capping, 4096-token windows")
            << "gemma-2-9b.json" << true << qint64(4) << true << qint64(4096) << "geglu";
        QTest::newRow("Gemma-3: four norms, no soft-capping (null), 512-token windows")
            << "gemma-3-1b.json" << true << qint64(4) << false << qint64(512) << "geglu";
        QTest::newRow("Llama: none of them, SiLU")
            << "llama-3.1-8b.json" << false << qint64(2) << false << qint64(0) << "swiglu";
        QTest::newRow("Phi-3 mini 4k: a 2047-token window")
            << "phi-3-mini-4k.json" << false << qint64(2) << false << qint64(2047) << "swiglu";
        QTest::newRow("Mixtral: sliding_window null")
            << "mixtral-8x7b.json" << false << qint64(2) << false << qint64(0) << "swiglu";
    }
    void gemmaTraits()
    {
        QFETCH(QString, file);
        QFETCH(bool, zeroCentered);
        QFETCH(qint64, norms);
        QFETCH(bool, softCapping);
        QFETCH(qint64, slidingWindow);
        QFETCH(QString, mlp);
        const auto model = importHfConfig(sampleText(file), file.toStdString());
        QVERIFY2(model.ok(), model.ok() ? "" : model.error().describe().c_str());
        QCOMPARE(model->arch.zeroCenteredNorm, zeroCentered);
        QCOMPARE(model->arch.normsPerLayer, norms);
        QCOMPARE(model->arch.softCapping, softCapping);
        QCOMPARE(model->arch.slidingWindow, slidingWindow);
        QCOMPARE(QString::fromLatin1(toString(model->arch.mlp)), mlp);
    }

    // Characters beyond U+FFFF come as escaped surrogate pairs (Python's json.dumps); an escaped
    // backslash before "u" is not an escape.
    void surrogatePairs_data()
    {
        QTest::addColumn<QByteArray>("escaped");
        QTest::addColumn<QString>("name");
        QTest::newRow("an emoji as a surrogate pair")
            << QByteArray("llama-\\ud83d\\ude42") << QStringLiteral("llama-🙂");
        QTest::newRow("upper-case hex digits") << QByteArray("llama-\\uD83D\\uDE42") << QStringLiteral("llama-🙂");
        QTest::newRow("an escaped backslash, then text")
            << QByteArray("llama-\\\\ud83d") << QStringLiteral("llama-\\ud83d");
    }
    void surrogatePairs()
    {
        QFETCH(QByteArray, escaped);
        QFETCH(QString, name);
        const std::string json = "{\"_name_or_path\": \"" + escaped.toStdString()
            + "\", \"hidden_size\": 4096, \"num_hidden_layers\": 32, \"num_attention_heads\": 32, "
              "\"intermediate_size\": 11008, \"vocab_size\": 32000}";
        const auto model = importHfConfig(json, "config.json");
        QVERIFY2(model.ok(), model.ok() ? "" : model.error().describe().c_str());
        QCOMPARE(QString::fromStdString(model->name), name);
        QCOMPARE(totalParameters(model->arch), qint64(6'738'415'616));
    }

    // GPT-NeoX's use_parallel_residual: Pythia's true (the default), RedPajama-INCITE's false.
    void gptNeoxResidual_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("parallel");
        QTest::newRow("not given: parallel") << QString() << true;
        QTest::newRow("use_parallel_residual: true") << "\"use_parallel_residual\": true, " << true;
        QTest::newRow("use_parallel_residual: false") << "\"use_parallel_residual\": false, " << false;
    }
    void gptNeoxResidual()
    {
        QFETCH(QString, key);
        QFETCH(bool, parallel);
        const std::string json = "{\"model_type\": \"gpt_neox\", " + key.toStdString()
            + "\"hidden_size\": 2560, \"num_hidden_layers\": 32, \"num_attention_heads\": 32, "
              "\"intermediate_size\": 10240, \"vocab_size\": 50432}";
        const auto model = importHfConfig(json, "config.json");
        QVERIFY2(model.ok(), model.ok() ? "" : model.error().describe().c_str());
        QCOMPARE(model->arch.parallelResidual, parallel);
        QCOMPARE(model->arch.modeling, Modeling::GptNeox);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown family lists what is missing") << "bert-base.json"
                                                              << "missing num_hidden_layers, intermediate_size";
        QTest::newRow("truncated file") << "truncated.json"
                                        << "not valid YAML";
        QTest::newRow("a key given twice (JSON readers keep the last, YAML the first)") << "duplicate-key.json"
                                                                                        << "hidden_size: appears twice";
        // Every key a Llama-family config has, but LayerNorm, biases and a plain GELU MLP.
        QTest::newRow("StarCoder2: a model type the import does not read")
            << "starcoder2-15b.json"
            << "model_type: 'starcoder2' is not a model type the import reads (gpt2, bert, gpt_neox, llama,";
    }
    void refusals()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        const auto model = importHfConfig(sampleText(file), file.toStdString());
        QVERIFY(!model.ok());
        QVERIFY2(QString::fromStdString(model.error().describe()).contains(message), model.error().describe().c_str());
        QVERIFY(QString::fromStdString(model.error().file).endsWith(file));
    }

    // What a config states that no field expresses is refused at its key, not imported as another model.
    void unmodelledArchitecturesAreRefused_data()
    {
        QTest::addColumn<QString>("keys");
        QTest::addColumn<QString>("message");
        QTest::newRow("Gemma-3's multimodal config")
            << "\"model_type\": \"gemma3\", \"text_config\": {\"model_type\": \"gemma3_text\"}, "
               "\"vision_config\": {}, "
            << "text_config: a multimodal model (its language model under text_config, beside a vision encoder) is "
               "not modelled";
        QTest::newRow("DeepSeek-V3's latent attention")
            << "\"model_type\": \"deepseek_v3\", \"kv_lora_rank\": 512, \"q_lora_rank\": 1536, "
            << "kv_lora_rank: multi-head latent attention (DeepSeek-V2 and V3) is not modelled";
        QTest::newRow("Qwen1.5-MoE's shared expert")
            << "\"model_type\": \"qwen2_moe\", \"num_experts\": 60, \"moe_intermediate_size\": 1408, "
               "\"shared_expert_intermediate_size\": 5632, "
            << "shared_expert_intermediate_size: 5632: a shared expert beside the routed ones is not modelled";
        QTest::newRow("DeepSeek-MoE's first dense layers")
            << "\"num_experts\": 64, \"first_k_dense_replace\": 1, "
            << "first_k_dense_replace: 1: dense layers before the MoE layers are not modelled";
        QTest::newRow("MoE in every other layer")
            << "\"model_type\": \"qwen3_moe\", \"num_experts\": 8, \"decoder_sparse_step\": 2, "
            << "decoder_sparse_step: 2: MoE in every n-th layer only is not modelled";
        QTest::newRow("dense layers listed among MoE ones")
            << "\"model_type\": \"qwen3_moe\", \"num_experts\": 8, \"mlp_only_layers\": [0, 5], "
            << "mlp_only_layers: dense layers among the MoE layers are not modelled";
        QTest::newRow("Gemma-2 soft-capping its logits only")
            << "\"model_type\": \"gemma2\", \"attn_logit_softcapping\": null, "
            << "final_logit_softcapping: soft-capping of the logits without the attention scores' (or the reverse) "
               "is not modelled";
        QTest::newRow("Qwen2's windows in its upper layers")
            << "\"model_type\": \"qwen2\", \"use_sliding_window\": true, \"max_window_layers\": 21, "
            << "use_sliding_window: a sliding window in some layers only is not modelled";
        QTest::newRow("a negative sliding window") << "\"model_type\": \"mistral\", \"sliding_window\": -5, "
                                                   << "sliding_window: -5 is out of range; allowed 0 to 16777216";
        QTest::newRow("Llama's MLP biases") << "\"model_type\": \"llama\", \"mlp_bias\": true, "
                                            << "mlp_bias: biases on a gated MLP's linears are not modelled";
        QTest::newRow("Phi-2: LayerNorm, parallel blocks, a plain MLP")
            << "\"model_type\": \"phi\", \"partial_rotary_factor\": 0.4, "
            << "model_type: 'phi' is not a model type the import reads";
        QTest::newRow("OLMo-2: full-width query/key norms, norms after each sublayer")
            << "\"model_type\": \"olmo2\", "
            << "model_type: 'olmo2' is not a model type the import reads";
        QTest::newRow("Jamba: Mamba layers among attention ones")
            << "\"model_type\": \"jamba\", \"num_experts\": 16, \"attn_layer_period\": 8, "
            << "model_type: 'jamba' is not a model type the import reads";
        QTest::newRow("GPT-BigCode: one key/value head for all")
            << "\"model_type\": \"gpt_bigcode\", \"multi_query\": true, \"n_embd\": 2048, "
            << "model_type: 'gpt_bigcode' is not a model type the import reads";
    }
    void unmodelledArchitecturesAreRefused()
    {
        QFETCH(QString, keys);
        QFETCH(QString, message);
        const auto model = importHfConfig(smallLlamaConfig(keys.toStdString()), "config.json");
        QVERIFY(!model.ok());
        QVERIFY2(QString::fromStdString(model.error().describe()).contains(message), model.error().describe().c_str());
    }

    // A config written before transformers named its model types: its keys say which block.
    void withoutModelTypeTheKeysDecide_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("modeling");
        QTest::newRow("n_embd: GPT-2") << "{\"n_embd\": 768, \"n_layer\": 12, \"n_head\": 12, \"vocab_size\": 50257}"
                                       << "gpt2";
        QTest::newRow("hidden_size: a Llama-family block") << QString::fromStdString(smallLlamaConfig({})) << "llama";
    }
    void withoutModelTypeTheKeysDecide()
    {
        QFETCH(QString, json);
        QFETCH(QString, modeling);
        const auto model = importHfConfig(json.toStdString(), "config.json");
        QVERIFY2(model.ok(), model.ok() ? "" : model.error().describe().c_str());
        QCOMPARE(QString::fromLatin1(toString(model->arch.modeling)), modeling);
    }

    // The same keys at values that state nothing beyond the model: imported.
    void modelledValuesOfThoseKeysImport()
    {
        const std::string json = smallLlamaConfig(
            "\"model_type\": \"qwen3_moe\", \"num_experts\": 8, \"num_experts_per_tok\": 2, "
            "\"moe_intermediate_size\": 768, \"decoder_sparse_step\": 1, \"mlp_only_layers\": [], "
            "\"shared_expert_intermediate_size\": 0, ");
        const auto model = importHfConfig(json, "config.json");
        QVERIFY2(model.ok(), model.ok() ? "" : model.error().describe().c_str());
        QCOMPARE(model->arch.experts, qint64(8));
        QCOMPARE(model->arch.expertsPerToken, qint64(2));
        QCOMPARE(model->arch.ffn, qint64(768)); // the experts' size, not the unused dense one
    }

    void importedPresetSavesAndReloads_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("Qwen2.5: QKV biases") << "qwen2.5-7b.json";
        QTest::newRow("Gemma-2: four norms, 1 + weight, soft-capping, a window, GeGLU") << "gemma-2-9b.json";
        QTest::newRow("Gemma-3: query/key norms too") << "gemma-3-1b.json";
    }
    void importedPresetSavesAndReloads()
    {
        QFETCH(QString, file);
        const auto model = importHfConfig(sampleText(file), file.toStdString());
        QVERIFY(model.ok());
        const auto reloaded = parseModelPreset(modelPresetToYaml(*model), "saved.yaml");
        QVERIFY(reloaded.ok());
        QCOMPARE(reloaded->arch, model->arch);
    }
};

QTEST_APPLESS_MAIN(TestHfConfig)
#include "tst_hfconfig.moc"
