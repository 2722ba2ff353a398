<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AssumptionsDialog</name>
    <message>
        <source>Assumptions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChartPanel</name>
    <message>
        <source>&amp;Bars:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pinned scenarios</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU counts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimization ladder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the bars compare: your pinned scenarios beside the current one, the current scenario over 1–64 GPUs or ZeRO stages 0–3, or the article&apos;s levers applied one at a time until it fits the first chosen GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pin current</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the current scenario as a bar to compare against. Right-click a pinned bar to rename, move or remove it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fits by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sum of all parts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak of the step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sum: everything at once, as other tools count (an upper bound). Peak: the most in use at any moment of the step, from the timeline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GiB = 2³⁰ bytes (what nvidia-smi and PyTorch report); GB = 10⁹ bytes (papers, vendor labels).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name for this bar:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pin %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename pin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move right</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ControlPanel</name>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import config.json…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read a Hugging Face config.json (or drop one on the window) and save it as your own preset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start from a model you know. Editing its shape below makes it a custom model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batch per GPU. Activations grow in proportion to it; parameters, gradients and optimizer states do not. Arrows double and halve; hold Shift for single steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per sample. Activations grow in proportion to it, and the attention scores with its square unless FlashAttention is on. Hold Shift for fine steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Hidden size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width h. Parameters grow with h², activations with h. Editing it makes the model custom.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transformer layers L. Parameters and activations both grow in proportion.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32: 4 B per weight and gradient. Mixed FP16/BF16: 2 B each plus an FP32 master copy (4 B) in the optimizer states. Pure BF16: no master copy, BF16 optimizer moments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare against GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each checked GPU draws a capacity line at what nvidia-smi reports, and gets its own verdict.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 reported (label %3)%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, capacity not verified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Uncheck to fold these away and teach with the five main sliders.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heads a. Without FlashAttention each keeps an s×s score matrix: activations grow with a·s².</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key/value heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GQA: fewer key/value heads shrink the K and V projections and their activations.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MLP size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Intermediate size f: two (GELU) or three (SwiGLU) h×f matrices per layer, and f-wide activations.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>V: the embedding and LM head are V×h each, and the logits s·b·V — large vocabularies make a big logits item.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AdamW (m, v in FP32)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>8-bit AdamW</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SGD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same as weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 (Megatron, 18 B/param)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BF16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adam keeps two FP32 states per parameter (8 B) — often the largest part of the bill.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 master copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mixed precision keeps an FP32 copy of the weights for the update (4 B/param). The article&apos;s 84 GB table leaves it out; uncheck to reproduce that table.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 gradient accumulation makes mixed precision 18 bytes per parameter instead of 16.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 — no sharding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 — optimizer states</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 — + gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3 — + parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer states to CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer and parameters to CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shards model states over the data-parallel GPUs: stage 1 the optimizer states, stage 2 also gradients, stage 3 also parameters. The article&apos;s first lever.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data-parallel GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N: ZeRO divides the sharded states by N.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Splits each layer&apos;s matrices and most activations over t GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each stage holds L/p layers; the first stage keeps up to p micro-batches of activations.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batches per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient accumulation; with pipelining it decides how many micro-batches are in flight.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With tensor parallelism, also splits the norm and dropout activations over t.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU offload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO-Offload moves the master copy and moments (and optionally parameters) to host memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Selective (attention)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full (gradient checkpointing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full: keep only each layer&apos;s input and recompute the rest in backward (≈ 33 % more compute). The article&apos;s second lever.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never stores the s×s attention scores: removes the activation term that grows with s².</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropout keeps 1-byte masks for backward; Llama-style training usually has none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freeze all but the top layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QLoRA (4-bit base)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fine-tuning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frozen weights need no gradients or optimizer states; LoRA trains small adapters only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adapters add r·(in + out) trainable parameters per adapted matrix.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runtime overhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adds the CUDA context (400 MiB), the caching allocator&apos;s reserve and NCCL buffers: what explains most gaps between estimates and nvidia-smi. Off: the article&apos;s four parts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocator reserve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fragmentation and cached blocks, as a share of what is allocated (commonly 5–30 %).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mixed FP16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mixed BF16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pure BF16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (yours)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom (%1 parameters)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExplanationPanel</name>
    <message>
        <source>Component</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How it is counted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 % of the total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What would cut it most (the article&apos;s levers):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every lever is already pulled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saves %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(then fits)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Skipped a preset file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — VRAM Ledger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import config.json…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export view…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy view as &amp;image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy breakdown as &amp;Markdown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy breakdown as &amp;CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;advanced controls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Assumptions and sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About VRAM Ledger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About VRAM Ledger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;VRAM Ledger %1&lt;/h3&gt;&lt;p&gt;How much GPU memory a training run takes, where it goes, and what to change when it does not fit.&lt;/p&gt;&lt;p&gt;Parameters, gradients, optimizer states and activations, each item with its formula.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Structure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stacked bars of the four components against your GPUs&apos; capacities.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One GPU&apos;s memory as blocks proportional to their bytes, and the flow of a training step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory in use through one step: the peak, not the sum, decides whether it fits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VRAM Ledger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot be written (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported %1 as your preset %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot be saved (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open scenario or config.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenarios and model configs (*.vramledger.yaml *.yaml *.yml *.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>VRAM Ledger scenarios (*.vramledger.yaml)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import a Hugging Face config.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model configs (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the view as an image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the breakdown as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the breakdown as Markdown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MemoryChart</name>
    <message>
        <source>Memory per GPU (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>≈ 4·(rows + columns) per matrix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Conventions in force&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;Bytes are counted exactly; sizes show in GiB (2³⁰ B) or GB (10⁹ B) as you choose.&lt;/li&gt;&lt;li&gt;Working weights: &lt;b&gt;%1 B&lt;/b&gt; per parameter; gradients: &lt;b&gt;%2 B&lt;/b&gt;.&lt;/li&gt;&lt;li&gt;FP32 master copy: &lt;b&gt;%3&lt;/b&gt;, counted inside the optimizer states (the ZeRO paper&apos;s K = 12).&lt;/li&gt;&lt;li&gt;Optimizer moments: &lt;b&gt;%4 B&lt;/b&gt; per trainable parameter.&lt;/li&gt;&lt;li&gt;Activations: &lt;b&gt;%5 B&lt;/b&gt; per element, 1-byte dropout masks; the tensors saved for backward are enumerated as in Korthikanti et al. 2022, Table 2.&lt;/li&gt;&lt;li&gt;Logits are kept in the activation dtype plus an FP32 copy for the loss.&lt;/li&gt;&lt;li&gt;The reported GPU is the most loaded one (for pipelines, the heavier of the first and last stage).&lt;/li&gt;&lt;li&gt;ZeRO-3 also holds the largest layer gathered whole, with its gradient (DeepSpeed&apos;s estimator).&lt;/li&gt;&lt;li&gt;Overhead: %6.&lt;/li&gt;&lt;li&gt;GPU capacities are what nvidia-smi reports, not the vendor label.&lt;/li&gt;&lt;/ul&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept, 4 B per trainable parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on — CUDA context %1 MiB, allocator reserve %2 %, NCCL buffers %3 MiB with more than one GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off — the article&apos;s four components only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Sources&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;The article this program grew from: the 7B table (28/28/56 GB in FP32; 14/14/56 GB in AMP) and its script.&lt;/li&gt;&lt;li&gt;Rajbhandari et al., ZeRO (arXiv 1910.02054): Figure 1 and the sharded model-state formulas.&lt;/li&gt;&lt;li&gt;Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (arXiv 2205.05198).&lt;/li&gt;&lt;li&gt;Dettmers et al., QLoRA (arXiv 2305.14314): NF4 with double quantization, 4.127 bits per parameter.&lt;/li&gt;&lt;li&gt;Megatron-LM theoretical memory, DeepSpeed&apos;s ZeRO estimators, Hugging Face &quot;Model training anatomy&quot;.&lt;/li&gt;&lt;li&gt;Each model preset names its config.json; each GPU preset its nvidia-smi reading.&lt;/li&gt;&lt;/ul&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot be written (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the PNG could not be encoded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: unknown format &apos;%2&apos;; use .png, .svg or .pdf</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StepTimelineView</name>
    <message>
        <source>In use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward →</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>← backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sum of all parts %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every layer&apos;s activations plus the logits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>activations of the forward pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradients appearing while activations are still held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all gradients with the optimizer states</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model states alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In use on this GPU (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StructureDiagram</name>
    <message>
        <source>One GPU&apos;s memory: %1 in all (block areas are proportional to bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO: this GPU&apos;s 1 of %1 slices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dashed: what recomputation avoids keeping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>16-bit working copy (FP32 master in optimizer states)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward reads the parameters, leaves activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward consumes activations, produces gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer step reads gradients, master copy and moments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>…and writes the parameters</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VerdictBar</name>
    <message>
        <source>peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sum of all parts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 per GPU&lt;/b&gt; (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · the step&apos;s peak is %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 in CPU memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a GPU to see whether it fits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: fits, %2 to spare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: does not fit, %2 short</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest batch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not even batch 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>longest sequence %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fewest GPUs at ZeRO-%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no GPU count fits at ZeRO-%1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>vl::formula</name>
    <message>
        <source>the article&apos;s b·s·h·L·2 estimate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trainable params</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>adapter params</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>factor entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>params</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 master copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adam m and v</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>8-bit Adam m and v</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plain SGD keeps no state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lion momentum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>momentum</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Adafactor row/column factors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs (ZeRO)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>offloaded to CPU memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>largest layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per layer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inputs &amp; norms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>micro-batches in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>each layer keeps only its input:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one layer&apos;s full activations while it is recomputed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 copy for the loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hidden</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vocab</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>vl::ui</name>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overhead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LoRA adapters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO-3 gathered layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FP32 master copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer moments (m, v)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logits (+ FP32 loss copy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recomputation working set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocator reserve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Communication buffers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO sharding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mixed precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smaller batch or sequence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stage %1 over %2 GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>full activation recomputation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BF16 mixed precision with an FP32 master copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sequence %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>micro-batch %1 × %2 accumulation steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
