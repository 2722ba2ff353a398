<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <source>as in Korthikanti et al. 2022, Table 2 (Megatron&apos;s fused kernels)</source>
        <translation>按 Korthikanti 等人 2022 年论文表 2（Megatron 的融合算子）</translation>
    </message>
    <message>
        <source>as %1&apos;s code saves them, each checked against PyTorch&apos;s autograd</source>
        <translation>按 %1 的代码实际保存的样子（每一项都已与 PyTorch autograd 核对）</translation>
    </message>
    <message>
        <source>PyTorch autocast, FP32 weights with a 16-bit cast of each kept until its backward</source>
        <translation>PyTorch autocast，FP32 权重，每个权重的 16 位副本保留到其反向</translation>
    </message>
    <message>
        <source>16-bit weights and gradients with an FP32 master copy</source>
        <translation>16 位权重和梯度，外加 FP32 主副本</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>≈ 4·(rows + columns) per matrix</source>
        <translation>每个矩阵约 4·(行数 + 列数)</translation>
    </message>
    <message>
        <source>kept, 4 B per trainable parameter</source>
        <translation>保留，每个可训练参数 4 字节</translation>
    </message>
    <message>
        <source>not kept</source>
        <translation>不保留</translation>
    </message>
    <message>
        <source>%1: cannot be written (%2)</source>
        <translation>%1：无法写入（%2）</translation>
    </message>
    <message>
        <source>%1: the PNG could not be encoded</source>
        <translation>%1：无法编码 PNG</translation>
    </message>
    <message>
        <source>%1: unknown format &apos;%2&apos;; use .png, .svg or .pdf</source>
        <translation>%1：未知格式“%2”；请使用 .png、.svg 或 .pdf</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO-%1: its optimizer allocates a contiguous gradient bucket of %2 elements (reduce_bucket_size).</source>
        <translation>DeepSpeed ZeRO-%1：其优化器分配一个 %2 个元素的连续梯度桶（reduce_bucket_size）。</translation>
    </message>
    <message>
        <source>Pipeline: the reported stage holds %1 micro-batch(es) in flight (1F1B; without a count, one per stage).</source>
        <translation>流水线：所报告的阶段同时有 %1 个微批在途（1F1B；未指定时每阶段一个）。</translation>
    </message>
    <message>
        <source>Gathered parameters and gradient buckets are runtime buffers: drawn with the parameters and gradients, alive only while the step computes, and not model states (the ZeRO paper&apos;s residual states). Megatron&apos;s theoretical memory and DeepSpeed&apos;s model-state estimators leave them out.</source>
        <translation>聚合的参数和梯度桶是运行时缓冲：画在模型参数和梯度里，只在计算时存在，不算模型状态（ZeRO 论文所说的剩余状态）。Megatron 的理论显存公式和 DeepSpeed 的模型状态估算器都不计它们。</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Parallelism and runtime buffers&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;并行与运行时缓冲&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>the caching allocator&apos;s pool, what torch.cuda.max_memory_reserved reports: the tensors and the allocator&apos;s reserve; nvidia-smi also shows the CUDA context and NCCL&apos;s buffers</source>
        <translation>缓存分配器的内存池，即 torch.cuda.max_memory_reserved 报告的量：张量加上分配器的预留；nvidia-smi 还会显示 CUDA 上下文和 NCCL 的缓冲区</translation>
    </message>
    <message>
        <source>what nvidia-smi shows for the process: the tensors, the caching allocator&apos;s reserve, the CUDA context and NCCL&apos;s buffers. GPU capacities are nvidia-smi readings too, so a plan that fits here fits the card</source>
        <translation>nvidia-smi 显示的该进程用量：张量、缓存分配器的预留、CUDA 上下文和 NCCL 的缓冲区。GPU 容量同样取 nvidia-smi 的读数，所以这里放得下的方案在卡上也放得下</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO-Offload: each GPU&apos;s process keeps its FP32 master, moments and gradients in CPU memory (at stages 1 and 2 also a 16-bit copy of its partition, a staging buffer and, with several micro-batches a step, their accumulated gradients): %1 per GPU, %2 for a node of %3 GPUs.</source>
        <translation>DeepSpeed ZeRO-Offload：每张 GPU 的进程都把自己的 FP32 主副本、动量和梯度放在 CPU 内存里（第 1、2 阶段还有分片的 16 位副本、一个中转缓冲区，以及每步多个微批次时累积的梯度）：每张 GPU %1，%3 卡节点共 %2。</translation>
    </message>
    <message>
        <source>Megatron-Core: 16-bit weights and FP32 main gradients on every GPU; the FP32 master copy and moments %1 (Megatron&apos;s theoretical memory: 18 B per parameter, 6 + 12/d with the distributed optimizer).</source>
        <translation>Megatron-Core：每张 GPU 上都有 16 位权重和 FP32 主梯度；FP32 主副本和动量%1（Megatron 的理论显存：每参数 18 字节，用分布式优化器时为 6 + 12/d）。</translation>
    </message>
    <message>
        <source>sharded by its distributed optimizer over %1 GPUs</source>
        <translation>由其分布式优化器切分到 %1 张 GPU</translation>
    </message>
    <message>
        <source>whole on every GPU</source>
        <translation>在每张 GPU 上完整保存</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Other tools&apos; accounting&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;Megatron-LM&apos;s theoretical memory: the same model states (18 B per parameter, 6 + 12/d with the distributed optimizer, under Megatron-Core). Its activations assume sequence parallelism with selective recomputation, count 4·ffn/h for the MLP even when it is gated, and add token ids, the embedding&apos;s dropout mask and FP32 logits: close to, not the same as, the layer lists here.&lt;/li&gt;&lt;li&gt;llm-analysis: the same model states where its conventions hold (a tied head, FP32 gradients, no tensor parallelism); it counts an untied head once and divides the norms&apos; gradients by TP. Its activations keep norm inputs in FP32 and count FlashAttention as 2·s·b·h + 4·a·s·b per layer.&lt;/li&gt;&lt;/ul&gt;</source>
        <translation>&lt;h3&gt;其他工具的算法&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;Megatron-LM 的理论显存：模型状态相同（每参数 18 字节，用分布式优化器时为 6 + 12/d，对应 Megatron-Core）。它的激活公式假定序列并行加选择性重计算，门控 MLP 也按 4·ffn/h 计，并额外计入 token id、嵌入层的 dropout 掩码和 FP32 logits：与这里逐层列出的张量接近，但不相同。&lt;/li&gt;&lt;li&gt;llm-analysis：在其约定成立时（输出头与嵌入共享、FP32 梯度、无张量并行）模型状态相同；它对不共享的输出头只算一次，并把归一化层的梯度除以 TP。它的激活把归一化层的输入按 FP32 计，FlashAttention 每层按 2·s·b·h + 4·a·s·b 计。&lt;/li&gt;&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>Logits are kept in FP32, which the loss reads as they are.</source>
        <translation>logits 以 FP32 保存，损失直接读取。</translation>
    </message>
    <message>
        <source>Logits are kept in the activation dtype, with an FP32 copy for the loss one chunk in %1 at a time (chunked cross-entropy).</source>
        <translation>logits 以激活的数据类型保存，另有供损失计算的 FP32 副本，每次只生成 1/%1（分块交叉熵）。</translation>
    </message>
    <message>
        <source>Logits are kept in the activation dtype, with an FP32 copy for the loss all at once.</source>
        <translation>logits 以激活的数据类型保存，另有一份供损失计算的 FP32 副本，一次整体生成。</translation>
    </message>
    <message>
        <source>Transformer Engine&apos;s FP8 under Megatron-LM: 16-bit weights and gradients with an FP32 master copy, an FP8 copy and FP8 transpose of every linear weight kept across micro-batches, and each linear&apos;s input saved for backward in FP8 (1 B)</source>
        <translation>Megatron-LM 下 Transformer Engine 的 FP8：16 位权重和梯度，外加 FP32 主副本；每个线性层权重的 FP8 副本和 FP8 转置跨微批保留；每个线性层的输入以 FP8（1 字节）保存供反向使用</translation>
    </message>
    <message>
        <source>Interleaved 1F1B, as Megatron-Core schedules it: the stage holds %1 passes of a micro-batch through one of its %2 model chunks at once (a warm-up of 2(p − r − 1) + (v − 1)·p passes on stage r, then one forward before each backward; all %3 when the warm-up covers them).</source>
        <translation>交错 1F1B，按 Megatron-Core 的调度：该阶段同时保留 %1 次“一个微批经过其 %2 个模型块之一”的前向（阶段 r 先预热 2(p − r − 1) + (v − 1)·p 次，之后每次反向前做一次前向；预热覆盖全部时为全部 %3 次）。</translation>
    </message>
    <message>
        <source>, CUDA context %1 MiB (%2 kernel loading), NCCL buffers %3 MiB with more than one GPU</source>
        <translation>，CUDA 上下文 %1 MiB（%2加载内核），多卡时 NCCL 缓冲区 %3 MiB</translation>
    </message>
    <message>
        <source>lazy</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>eager</source>
        <translation>立即</translation>
    </message>
    <message>
        <source>Activation offload (torchtune&apos;s OffloadActivations): the layers&apos; saved tensors, %1 per GPU, wait in pinned CPU memory from their forward to their backward; the GPU keeps those in transit. The final norm&apos;s, the head&apos;s and the loss&apos;s tensors and autocast&apos;s weight casts are counted on the GPU.</source>
        <translation>激活卸载（torchtune 的 OffloadActivations）：各层为反向保存的张量（每张 GPU %1）从前向到反向一直放在锁页 CPU 内存里；GPU 上只留正在传输的部分。最终归一化、输出头和损失保存的张量，以及 autocast 的权重副本，仍按在 GPU 上计算。</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Sources&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;The article this program grew from: the 7B table (28/28/56 GB in FP32; 14/14/56 GB in AMP) and its script.&lt;/li&gt;&lt;li&gt;Rajbhandari et al., ZeRO (arXiv 1910.02054): Figure 1 and the sharded model-state formulas.&lt;/li&gt;&lt;li&gt;Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (arXiv 2205.05198).&lt;/li&gt;&lt;li&gt;Dettmers et al., QLoRA (arXiv 2305.14314): NF4 with double quantization, 4.127 bits per parameter (4.5 without).&lt;/li&gt;&lt;li&gt;Megatron-LM theoretical memory, DeepSpeed&apos;s ZeRO estimators, Hugging Face &quot;Model training anatomy&quot;.&lt;/li&gt;&lt;li&gt;Each model preset names its config.json; each GPU preset its nvidia-smi reading.&lt;/li&gt;&lt;/ul&gt;</source>
        <translation>&lt;h3&gt;出处&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;本程序所依据的文章：7B 模型的表格（FP32 为 28/28/56 GB，AMP 为 14/14/56 GB）及其脚本。&lt;/li&gt;&lt;li&gt;Rajbhandari 等，ZeRO（arXiv 1910.02054）：图 1 与切分后模型状态的公式。&lt;/li&gt;&lt;li&gt;Korthikanti 等，Reducing Activation Recomputation in Large Transformer Models（arXiv 2205.05198）。&lt;/li&gt;&lt;li&gt;Dettmers 等，QLoRA（arXiv 2305.14314）：带双重量化的 NF4，每参数 4.127 位（不带双重量化为 4.5 位）。&lt;/li&gt;&lt;li&gt;Megatron-LM 的理论显存计算、DeepSpeed 的 ZeRO 估算器、Hugging Face《Model training anatomy》。&lt;/li&gt;&lt;li&gt;每个模型预设都注明其 config.json 来源；每个 GPU 预设都注明其 nvidia-smi 读数来源。&lt;/li&gt;&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>Paged optimizer (bitsandbytes): the states of every tensor of 1e5 elements or more, %1 per GPU, live in CUDA managed memory. While the GPU has room they stay there and nvidia-smi shows them; when it runs short the driver pages them out to CPU memory instead of failing, so the verdict does not count them. PyTorch&apos;s allocator never sees them.</source>
        <translation>分页优化器（bitsandbytes）：元素数不少于 1e5 的每个张量的状态（每块 GPU %1）放在 CUDA 统一内存中。GPU 有空间时它们留在显存里，nvidia-smi 能看到；显存不足时驱动把它们换出到 CPU 内存而不是报错，所以结论不把它们计入。PyTorch 的分配器看不到它们。</translation>
    </message>
    <message>
        <source>Optimizer in backward (torchtune&apos;s optimizer_in_bwd): each weight is updated as soon as its gradient is ready and the gradient is freed, so the gradients count one weight&apos;s, the largest: %1.</source>
        <translation>反向中更新（torchtune 的 optimizer_in_bwd）：每个权重的梯度一算好就立即更新并释放梯度，因此梯度只计一个权重的，取最大的：%1。</translation>
    </message>
    <message>
        <source>PyTorch 2.1 or older: torch.mean keeps its input for backward (fixed in 2.2, pytorch/pytorch#109935), so each RMSNorm written with mean also keeps x², one more tensor of the layer&apos;s width per token.</source>
        <translation>PyTorch 2.1 或更早：torch.mean 会为反向保留其输入（2.2 修复，pytorch/pytorch#109935），因此每个用 mean 写成的 RMSNorm 还会保留 x²，即每个 token 多一份层宽度的张量。</translation>
    </message>
    <message>
        <source>Liger kernels: Liger Kernel&apos;s RMSNorm keeps its input and an FP32 1/rms, its SwiGLU the gate and up outputs, and its fused linear cross-entropy computes the output layer&apos;s gradients in forward, one chunk of logits at a time, and keeps them for backward.</source>
        <translation>Liger 内核：Liger Kernel 的 RMSNorm 保留其输入和 FP32 的 1/rms，其 SwiGLU 保留 gate 与 up 的输出，其融合线性交叉熵在前向中一次一块 logits 地算出输出层的梯度，并为反向保留它们。</translation>
    </message>
    <message>
        <source>Backward&apos;s working set: while one layer runs backward it holds %1 of gradients beside what the layers saved (the residual stream&apos;s and its MLP&apos;s, at their widest). The loss&apos;s tensors are freed by then, so the sum adds what it exceeds them by: %2.</source>
        <translation>反向传播工作集：某一层做反向传播时，除各层保存的张量外还持有 %1 的梯度（残差流的梯度和该层 MLP 最宽处的梯度）。此时损失的张量已经释放，所以总和只加上超出它们的部分：%2。</translation>
    </message>
    <message>
        <source>FSDP&apos;s streams: the sharded gradients are allocated on its reduce-scatter stream and the all-gather buffers on its copy-in stream. PyTorch&apos;s caching allocator keeps a freed block for the stream that allocated it, so the reserved memory holds them all step, %1 and %2, which the step timeline draws from its start.</source>
        <translation>FSDP 的 CUDA 流：分片后的梯度分配在它的 reduce-scatter 流上，聚合缓冲区分配在它的拷入流上。PyTorch 的缓存分配器把释放的块留给分配它的那条流，因此预留显存在整个训练步都持有它们（%1 和 %2），步骤时间线从一开始就画出它们。</translation>
    </message>
    <message>
        <source>Gradients kept between steps (zero_grad(set_to_none=False), PyTorch 1&apos;s default): the step timeline holds them from the start of forward, and so does its peak; the sum counts them either way.</source>
        <translation>两步之间保留梯度（zero_grad(set_to_none=False)，PyTorch 1 的默认）：训练步时间线从前向开始就计入它们，峰值也因此计入；各部分之和无论如何都计入它们。</translation>
    </message>
    <message>
        <source>the tensors and cuBLAS&apos;s workspaces, what torch.cuda.max_memory_allocated reports. A real run needs more: the caching allocator&apos;s reserve, the CUDA context and NCCL&apos;s buffers</source>
        <translation>张量与 cuBLAS 工作区，即 torch.cuda.max_memory_allocated 报告的量。真实运行还要更多：缓存分配器的预留、CUDA 上下文和 NCCL 的缓冲区</translation>
    </message>
    <message>
        <source>, allocator reserve %1 % of what is allocated at the step&apos;s peak</source>
        <translation>，分配器预留，为步骤峰值时已分配量的 %1%</translation>
    </message>
    <message>
        <source>cuBLAS workspaces %1 (compute capability %2)</source>
        <translation>cuBLAS 工作区 %1（计算能力 %2）</translation>
    </message>
    <message>
        <source>FSDP (PyTorch&apos;s fully_shard, as torchtitan applies it): FP32 shards over %1 GPUs, gathered in 16 bits under mixed precision: the embedding, final norm and head for the whole step, the layers one at a time in forward and two in backward, each through an all-gather buffer as large as the unit; in backward one layer&apos;s unsharded gradients wait with their reduce-scatter input.</source>
        <translation>FSDP（PyTorch 的 fully_shard，按 torchtitan 的用法）：FP32 分片分布在 %1 张 GPU 上，混合精度下以 16 位聚合：嵌入层、末层归一化和输出头在整个训练步都保持聚合，各层在前向时每次聚合一层、反向时两层，每次聚合都经过一个与该单元同样大的聚合缓冲区；反向时一层未分片的梯度和它的 reduce-scatter 输入同时存在。</translation>
    </message>
    <message>
        <source>PyTorch 1.10 or older: softmax and log_softmax keep their input for backward beside their output (fixed in 1.11, pytorch/pytorch#65242), so eager attention keeps its scores, one more tensor of the probabilities&apos; size per layer, and a language model&apos;s loss keeps its FP32 logits.</source>
        <translation>PyTorch 1.10 或更早：softmax 和 log_softmax 除输出外还会为反向保留其输入（1.11 修复，pytorch/pytorch#65242），因此 eager 注意力会保留其分数，每层多一份与概率同样大小的张量；语言模型的损失会保留其 FP32 logits。</translation>
    </message>
    <message>
        <source>The loss&apos;s backward: the 16-bit logits are freed before it, and its FP32 buffers, 4 B a logit, fill the blocks freed with them but for 2 B a logit. The caching allocator keeps that block, %1, reserved and unused while the loss&apos;s backward runs, so a reading of reserved memory shows it. When the GPU runs short the allocator frees such unused blocks and tries again, so it does not by itself run a job out of memory.</source>
        <translation>损失的反向传播：16 位 logits 在它之前释放，它的 FP32 缓冲区（每个 logit 4 B）填满与 logits 一同释放的块，只余下每个 logit 2 B。缓存分配器在损失的反向传播期间把这一块（%1）保留而不用，所以保留显存的读数会包含它。GPU 显存不足时，分配器会释放这类未用的块再重试，因此它本身不会让任务显存溢出。</translation>
    </message>
    <message>
        <source>FSDP&apos;s MixedPrecisionPolicy: the FP32 shards, which the optimizer updates, gathered in 16 bits for each layer to compute in; no separate master copy</source>
        <translation>FSDP 的 MixedPrecisionPolicy：优化器更新的是 FP32 分片，每层计算时以 16 位聚合；没有单独的主副本</translation>
    </message>
    <message>
        <source>torchtune&apos;s RoPE keeps a cache of cos and sin in FP32 for %1 positions, %2, all step. %3</source>
        <translation>torchtune 的 RoPE 为 %1 个位置以 FP32 保留 cos 与 sin 的缓存，共 %2，整个训练步都在。%3</translation>
    </message>
    <message>
        <source>the sequence&apos;s %1 (no maximum stated)</source>
        <translation>序列的 %1（未给出最大位置数）</translation>
    </message>
    <message>
        <source>With packed samples every layer gathers the cache&apos;s rows at the positions for its query and for its key and keeps them for backward.</source>
        <translation>样本打包时，每层都会按位置为 query 和 key 各取出一份缓存行，并为反向传播保留。</translation>
    </message>
    <message>
        <source>Samples are not packed: every layer reads a slice of the cache.</source>
        <translation>样本未打包：每层只读取缓存的一个切片。</translation>
    </message>
    <message>
        <source>torchtune&apos;s QLoRA stores every projection of a layer as torchao&apos;s NF4Tensor and dequantizes it with plain tensor ops for each product, forward and backward, holding %1 at once for the largest; under torch.compile Inductor fuses those ops, which the estimate does not count.</source>
        <translation>torchtune 的 QLoRA 把每层的所有投影都存为 torchao 的 NF4Tensor，并在前向和反向的每次乘法前用普通张量运算反量化，最大的那个投影同时占用 %1；在 torch.compile 下 Inductor 会融合这些运算，本估算不计入这种情况。</translation>
    </message>
    <message>
        <source>Megatron-LM&apos;s loop fetches each micro-batch as it runs forward: its token ids, labels and loss mask; no causal mask from the data loader (--no-create-attention-mask-in-dataloader).</source>
        <translation>Megatron-LM 的训练循环在每个微批次前向时取出它：token id、标签和损失掩码；数据加载器不构建因果掩码（--no-create-attention-mask-in-dataloader）。</translation>
    </message>
    <message>
        <source>Between steps each of the stage&apos;s model chunks keeps its last micro-batch&apos;s pipeline input and that input&apos;s gradient until its next forward (Megatron-Core&apos;s set_input_tensor): %1, in the step timeline before the step and during the optimizer step, never at the peak.</source>
        <translation>两步之间，该阶段的每个模型分块都保留其最后一个微批次的流水线输入及该输入的梯度，直到它下一次前向（Megatron-Core 的 set_input_tensor）：%1。在训练步时间线中位于步骤开始前和优化器更新期间，从不在峰值处。</translation>
    </message>
    <message>
        <source>Megatron-LM&apos;s loop fetches each micro-batch as it runs forward: its token ids, labels and loss mask, and the causal mask its data loader builds, s × s booleans a sample (--create-attention-mask-in-dataloader, its default).</source>
        <translation>Megatron-LM 的训练循环在每个微批次前向时取出它：token id、标签和损失掩码，以及数据加载器构建的因果掩码，每个样本 s × s 个布尔值（--create-attention-mask-in-dataloader，默认开启）。</translation>
    </message>
    <message>
        <source>Its rerun state machine (--rerun-mode validate_results, the default) keeps every micro-batch the step fetched, to replay the step, on the GPU that reads the data loader (tensor-parallel rank 0) until the next step begins: %1 micro-batches, %2 by the step&apos;s end.</source>
        <translation>它的重跑状态机（--rerun-mode validate_results，默认）为了能重放这一步，会把本步取出的每个微批次都留在读取数据加载器的 GPU（张量并行 rank 0）上，直到下一步开始：%1 个微批次，到本步结束时共 %2。</translation>
    </message>
    <message>
        <source>Each is freed when its forward returns, but for the ids the embedding keeps (--rerun-mode disabled, or Megatron-LM before May 2026).</source>
        <translation>每个微批次在其前向返回时释放，只有嵌入层保存的 id 除外（--rerun-mode disabled，或 2026 年 5 月之前的 Megatron-LM）。</translation>
    </message>
    <message>
        <source>lit-gpt makes its weights on the GPU one after another. PyTorch&apos;s caching allocator gives each weight of 10 MiB or more a segment rounded up to 2 MiB and leaves a remainder of at most 1 MiB in its block, so the weights&apos; blocks hold %1 more than the weights, which max_memory_allocated counts.</source>
        <translation>lit-gpt 在 GPU 上逐个创建权重。PyTorch 的缓存分配器给每个 10 MiB 及以上的权重分配一个向上取整到 2 MiB 的段，不超过 1 MiB 的余量留在块内，因此权重所占的块比权重本身多出 %1，max_memory_allocated 会计入这部分。</translation>
    </message>
    <message>
        <source>Interleaved, a pipeline input stays referenced after its backward, with the gradient left on it: the one the schedule received last in warm-up until the schedule returns, and each model chunk&apos;s latest until that chunk&apos;s next forward (set_input_tensor). At most %1 such tensors beside one steady-state forward: %2.</source>
        <translation>交错调度下，流水线输入在其反向传播之后仍被引用，连同留在它上面的梯度：调度在预热末尾最后接收的那个输入，直到调度返回；以及每个模型分块最新的输入，直到该分块下一次前向（set_input_tensor）。一次稳态前向旁边最多有 %1 个这样的张量：%2。</translation>
    </message>
    <message>
        <source>The schedule holds activation gradients beside the stage&apos;s passes: from its second steady-state forward on, the previous backward&apos;s, the one it sent back and the one it received (or, interleaved, the next backward&apos;s, received ahead); beside a backward, the previous backward&apos;s sent back and the one this backward started from, until it returns. The most at once: %1.</source>
        <translation>调度器在该阶段的各次计算旁持有激活梯度：从第二个稳态前向起，持有上一次反向的梯度，即它发回的梯度和它收到的梯度（交错调度时则是为下一次反向提前接收的梯度）；在反向期间，持有上一次反向发回的梯度和本次反向起始的梯度，直到本次反向返回。同时最多：%1。</translation>
    </message>
    <message>
        <source>Interleaved, a steady-state backward runs beside the output of the forward before it, sent but not freed until the next forward, and the next forward&apos;s input, received ahead: %1.</source>
        <translation>交错调度时，稳态反向运行时旁边还有它之前那次前向的输出（已发出，但要到下一次前向才释放）和提前接收的下一次前向的输入：%1。</translation>
    </message>
    <message>
        <source>Without sharding the data-parallel GPUs run PyTorch&apos;s DistributedDataParallel, whose all-reduce buckets hold a copy of every gradient from the moment the model is wrapped (gradient_as_bucket_view off, PyTorch&apos;s default): %1, all step.</source>
        <translation>不分片时，数据并行的 GPU 运行 PyTorch 的 DistributedDataParallel，它的 all-reduce 桶从模型被包装起就保存每个梯度的一份副本（gradient_as_bucket_view 关闭，PyTorch 的默认）：%1，贯穿整个训练步。</translation>
    </message>
    <message>
        <source>Without sharding the data-parallel GPUs run PyTorch&apos;s DistributedDataParallel with gradient_as_bucket_view: the gradients are views into its all-reduce buckets, allocated for the whole step.</source>
        <translation>不分片时，数据并行的 GPU 运行开启 gradient_as_bucket_view 的 PyTorch DistributedDataParallel：梯度是其 all-reduce 桶的视图，整个训练步都已分配。</translation>
    </message>
    <message>
        <source>PyTorch 2.0 or older: foreach AdamW adds eps to √v out of place (in place since 2.1, pytorch/pytorch#104898), so its step holds two intermediates as large as all the parameters it steps, not one.</source>
        <translation>PyTorch 2.0 或更早：foreach AdamW 以非原地方式把 eps 加到 √v 上（自 2.1 起为原地，pytorch/pytorch#104898），所以它的更新步同时持有两个与全部被更新参数一样大的中间张量，而不是一个。</translation>
    </message>
    <message>
        <source>Optimizer step: %1 of intermediates while the optimizer updates the weights (PyTorch&apos;s foreach AdamW computes √v of every tensor at once; its for-loop version and Hugging Face&apos;s own AdamW and Adafactor one tensor at a time, the loops keeping the previous tensor&apos;s denominator until the next replaces it, so the widest pair of neighbouring tensors in the order the model registers them counts), gone before the next forward. The sum counts them; the step timeline shows them at the step. A fused optimizer needs none.</source>
        <translation>优化器更新步：优化器更新权重时的中间张量 %1（PyTorch 的 foreach AdamW 一次算出所有张量的 √v；它的 for-loop 版本、Hugging Face 自己的 AdamW 和 Adafactor 每次一个张量，循环会保留上一个张量的分母直到被下一个替换，所以按模型注册参数的顺序，相邻两个张量中最宽的一对计入），在下一次前向之前释放。总和计入它们；步骤时间线把它们放在更新步。融合优化器不需要。</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s ZeRO steps its flat partitions one at a time: for each it makes an FP32 copy of the partition&apos;s gradients for the optimizer (through a 16-bit flat copy, freed once converted), %1 for the largest, and drops it after that partition&apos;s step.</source>
        <translation>DeepSpeed 的 ZeRO 逐个更新它的扁平分片：对每个分片，它为优化器生成该分片梯度的 FP32 副本（经由一个 16 位扁平副本，转换后即释放），最大的分片为 %1，该分片更新完即丢弃。</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Conventions in force&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;Bytes are counted exactly; sizes show in GiB (2³⁰ B) or GB (10⁹ B) as you choose.&lt;/li&gt;&lt;li&gt;Working weights: &lt;b&gt;%1 B&lt;/b&gt; per parameter; gradients: &lt;b&gt;%2 B&lt;/b&gt;. Mixed precision: %9.&lt;/li&gt;&lt;li&gt;FP32 master copy: &lt;b&gt;%3&lt;/b&gt;, counted inside the optimizer states (the ZeRO paper&apos;s K = 12).&lt;/li&gt;&lt;li&gt;Optimizer moments: &lt;b&gt;%4 B&lt;/b&gt; per trainable parameter.&lt;/li&gt;&lt;li&gt;Activations: &lt;b&gt;%5 B&lt;/b&gt; per element, 1-byte dropout masks; the tensors saved for backward are enumerated %7.&lt;/li&gt;&lt;li&gt;%8&lt;/li&gt;&lt;li&gt;Compared with: %10.&lt;/li&gt;&lt;li&gt;The reported GPU is the most loaded one (for pipelines, the heavier of the first and last stage).&lt;/li&gt;&lt;li&gt;Runtime overhead: %6.&lt;/li&gt;&lt;li&gt;GPU capacities are what nvidia-smi reports, not the vendor label.&lt;/li&gt;&lt;/ul&gt;</source>
        <translation>&lt;h3&gt;当前采用的约定&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;按字节精确计数；大小按你的选择显示为 GiB（2³⁰ 字节）或 GB（10⁹ 字节）。&lt;/li&gt;&lt;li&gt;工作权重：每参数 &lt;b&gt;%1 字节&lt;/b&gt;；梯度：&lt;b&gt;%2 字节&lt;/b&gt;。混合精度：%9。&lt;/li&gt;&lt;li&gt;FP32 主副本：&lt;b&gt;%3&lt;/b&gt;，计入优化器状态（即 ZeRO 论文中的 K = 12）。&lt;/li&gt;&lt;li&gt;优化器动量：每个可训练参数 &lt;b&gt;%4 字节&lt;/b&gt;。&lt;/li&gt;&lt;li&gt;激活：每个元素 &lt;b&gt;%5 字节&lt;/b&gt;，dropout 掩码 1 字节；为反向传播保存的张量%7逐项列出。&lt;/li&gt;&lt;li&gt;%8&lt;/li&gt;&lt;li&gt;对照读数：%10。&lt;/li&gt;&lt;li&gt;报告的是负载最重的那张 GPU（流水线并行时取首、末阶段中较重者）。&lt;/li&gt;&lt;li&gt;运行时开销：%6。&lt;/li&gt;&lt;li&gt;GPU 容量取 nvidia-smi 的实报值，而不是厂商标称。&lt;/li&gt;&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>, NCCL %1&apos;s NVLS buffers %2 (an NVSwitch that does NVLink SHARP)</source>
        <translation>，NCCL %1 的 NVLS 缓冲区 %2（支持 NVLink SHARP 的 NVSwitch）</translation>
    </message>
    <message>
        <source>transformers never builds a 4-bit model under it</source>
        <translation>transformers 从不在其下构建 4 位模型</translation>
    </message>
    <message>
        <source>zero.Init is off</source>
        <translation>zero.Init 已关闭</translation>
    </message>
    <message>
        <source>The model is not built under DeepSpeed&apos;s zero.Init (%1): its engine moves it whole onto every GPU before ZeRO-3 partitions it, so at the run&apos;s start-up each GPU holds all of it, %2, beside the context, NCCL&apos;s buffers and the reserve.</source>
        <translation>模型不在 DeepSpeed 的 zero.Init 下构建（%1）：其引擎在 ZeRO-3 切分之前把它整体移到每张 GPU 上，因此运行启动时每张 GPU 都持有整个模型，共 %2，另有 CUDA 上下文、NCCL 缓冲区和分配器预留。</translation>
    </message>
    <message>
        <source>FSDP1 (PyTorch&apos;s FullyShardedDataParallel, as accelerate and Lightning wrap it): FP32 shards over %1 GPUs, gathered in 16 bits under mixed precision: the embedding, final norm and head for the whole step, the layers one at a time in forward and two in backward, each straight into its flat parameter; in backward one layer&apos;s unsharded gradients wait with their reduce-scatter input.</source>
        <translation>FSDP1（PyTorch 的 FullyShardedDataParallel，accelerate 与 Lightning 所封装的）：FP32 分片分布在 %1 张 GPU 上，混合精度下以 16 位聚合：嵌入层、最终归一化和输出头在整个训练步都保持聚合，各层在前向时每次一层、反向时两层，每层直接聚合进其扁平参数；反向时一层的未分片梯度与其 reduce-scatter 输入一起等待。</translation>
    </message>
    <message>
        <source>FSDP&apos;s streams: the sharded gradients are allocated on its reduce-scatter stream and the shards&apos; 16-bit casts for the all-gather on its unshard stream. PyTorch&apos;s caching allocator keeps a freed block for the stream that allocated it, so the reserved memory holds them all step, %1 and %2, which the step timeline draws from its start.</source>
        <translation>FSDP 的 CUDA 流：分片后的梯度分配在它的 reduce-scatter 流上，为 all-gather 转成 16 位的分片分配在它的聚合（unshard）流上。PyTorch 的缓存分配器把释放的块留给分配它的那条流，因此预留显存在整个训练步都持有它们（%1 和 %2），步骤时间线从一开始就画出它们。</translation>
    </message>
    <message>
        <source>Gradients accumulate without sync (FSDP&apos;s no_sync, as accelerate&apos;s gradient accumulation and Lightning Fabric&apos;s no_backward_sync do): every GPU keeps the unsharded gradients of all it trains, in the reduce dtype (FSDP1: the compute dtype), until the step&apos;s last micro-batch. With FSDP1&apos;s flat parameters (use_orig_params) a LoRA run keeps them for the frozen weights too, which the estimate does not count.</source>
        <translation>梯度不同步累积（FSDP 的 no_sync，accelerate 的梯度累积和 Lightning Fabric 的 no_backward_sync 都这样做）：每张 GPU 保留其所训练全部参数的未分片梯度，以归约精度保存（FSDP1：计算精度），直到本步最后一个微批次。在 FSDP1 的扁平参数（use_orig_params）下，LoRA 训练还会为冻结权重保留这些梯度，估算未计入这部分。</translation>
    </message>
    <message>
        <source>Each micro-batch reduce-scatters its gradients (torchtitan&apos;s and torchtune&apos;s way). Accumulating without sync (no_sync: accelerate&apos;s gradient accumulation, Lightning Fabric&apos;s no_backward_sync) would keep every GPU&apos;s unsharded gradients all step: --no-sync yes.</source>
        <translation>每个微批次都对梯度做 reduce-scatter（torchtitan 和 torchtune 的做法）。不同步累积（no_sync：accelerate 的梯度累积、Lightning Fabric 的 no_backward_sync）会让每张 GPU 整步保留未分片梯度：--no-sync yes。</translation>
    </message>
    <message>
        <source>Over the step&apos;s %1 micro-batches each backward adds into the gradients the earlier ones left, so the last micro-batch&apos;s forward and loss run beside them, %2.</source>
        <translation>本步的 %1 个微批次中，每次反向传播都累加到前面微批次留下的梯度上，所以最后一个微批次的前向和损失计算时，这些梯度（%2）一直在显存中。</translation>
    </message>
    <message>
        <source>FSDP1&apos;s use_orig_params (accelerate&apos;s and Lightning&apos;s default): zero_grad frees the original parameters&apos; gradients, views of each unit&apos;s flat gradient, and FSDP frees the flat gradients only when the next forward starts, so the sharded gradients, %1, stay between steps.</source>
        <translation>FSDP1 的 use_orig_params（accelerate 和 Lightning 的默认值）：zero_grad 释放原始参数的梯度——它们是每个单元扁平梯度的视图——而 FSDP 要到下一次前向开始时才释放扁平梯度，所以分片梯度（%1）在两步之间仍然保留。</translation>
    </message>
    <message>
        <source>FSDP1 without use_orig_params: zero_grad frees the flat parameters&apos; gradients after the step.</source>
        <translation>FSDP1 不使用 use_orig_params：zero_grad 在优化器步之后释放扁平参数的梯度。</translation>
    </message>
    <message>
        <source>Reentrant checkpoint (transformers&apos; default, use_reentrant=True): while a recomputed layer runs backward, torch.utils.checkpoint also holds the output it recomputed, %1, counted in the recomputation&apos;s working set. The non-reentrant checkpoint drops it (--use-reentrant no).</source>
        <translation>可重入检查点（transformers 的默认设置，use_reentrant=True）：重算的层做反向传播时，torch.utils.checkpoint 还持有它重算出的输出 %1，计入重计算工作集。非可重入检查点会丢弃它（--use-reentrant no）。</translation>
    </message>
    <message>
        <source>K and V copied to every head (Hugging Face&apos;s Mistral, Mixtral and Qwen2 flash attention before transformers 4.48, and SDPA in those releases): each layer&apos;s attention keeps its keys and values as wide as its queries, %1 more a layer than at the key/value heads (--kv-repeat no).</source>
        <translation>K、V 复制到每个头（transformers 4.48 之前 Hugging Face 的 Mistral、Mixtral 和 Qwen2 flash attention，以及这些版本里的 SDPA）：每层注意力保存的键和值与查询一样宽，比按键/值头保存每层多 %1（--kv-repeat no）。</translation>
    </message>
    <message>
        <source>FSDP1 with the reentrant checkpoint: the hook FSDP1 sets on each frozen layer to reshard it after its backward holds the layer&apos;s checkpointed input, and so its gradient, until backward ends, %1 more at the first layer&apos;s backward. The non-reentrant checkpoint (--use-reentrant no) or FSDP2 frees them layer by layer.</source>
        <translation>FSDP1 加可重入检查点：FSDP1 为在反向后重新分片而挂在每个冻结层上的钩子，把该层的检查点输入及其梯度一直留到反向结束，在第一层的反向时多出 %1。非可重入检查点（--use-reentrant no）或 FSDP2 会逐层释放它们。</translation>
    </message>
    <message>
        <source>Mixture of experts: the block runs its experts one after another. However routing falls, their saved rows add up to k a token; the expert computing at the block&apos;s widest moment, its last, is taken to get %1.</source>
        <translation>混合专家：该块逐个运行各专家。无论路由如何分布，它们保存的行合计每个 token k 行；在该块最宽时刻正在计算的专家（最后一个）按以下假设计算：%1。</translation>
    </message>
    <message>
        <source>every token, the most routing can give it</source>
        <translation>分到全部 token，即路由最多能给它的量</translation>
    </message>
    <message>
        <source>its even share, k/e of the tokens (routing that favours it makes that moment wider)</source>
        <translation>平均份额，即 k/e 的 token（偏向它的路由会让那一刻更宽）</translation>
    </message>
    <message>
        <source>bitsandbytes 0.43.1 or older: every 4-bit linear keeps its input for backward (dropped in 0.43.2, bitsandbytes pull request 1270) as an attribute of its autograd context, which autograd frees only with the graph: through the whole backward of a layer, after its own backward has run. Under the non-reentrant checkpoint, which keeps each layer&apos;s graph from forward on, every layer&apos;s stay from its forward to the end of backward.</source>
        <translation>bitsandbytes 0.43.1 或更早：每个 4 位线性层都为反向传播保留其输入（0.43.2 起不再保留，见 bitsandbytes 拉取请求 1270），存为其 autograd 上下文的属性，autograd 只随计算图一起释放它：在该层的整个反向传播期间都在，即使它自己的反向已经跑完。在非重入式检查点下，前向会一直保留每层的计算图，所以每一层的这些输入从它的前向起一直留到反向结束。</translation>
    </message>
    <message>
        <source>Padded batches: Hugging Face hands SDPA the padding mask, so keys and values are copied to every head (%1 more a layer than at the key/value heads) and SDPA&apos;s memory-efficient kernel keeps the mask, s×s a sequence, for every layer&apos;s backward (--padding-mask no: packed batches, or batches without padding).</source>
        <translation>批次经过填充：Hugging Face 把填充掩码交给 SDPA，因此 key 和 value 被复制到每个注意力头（每层比按键/值头多 %1），SDPA 的 memory-efficient 内核为每一层的反向传播保留该掩码，每条序列 s×s（--padding-mask no：打包的批次，或没有填充的批次）。</translation>
    </message>
    <message>
        <source>Eager attention (and SDPA&apos;s math kernel) is widest in backward at its softmax, before the layer&apos;s backward has made the gradients of its first norm and of q, k and v: each layer&apos;s backward point holds %1 less than the layer&apos;s whole gradients.</source>
        <translation>Eager 注意力（以及 SDPA 的 math 内核）在反向传播中以 softmax 处为最宽，此时该层的反向传播尚未生成其第一个归一化及 q、k、v 的梯度：每层的反向传播时刻比该层的全部梯度少占 %1。</translation>
    </message>
    <message>
        <source>FSDP&apos;s all-gather output, as torch.cuda.max_memory_allocated sees it: forward keeps each unit&apos;s until the next unit&apos;s copy-out and frees the last as it ends; backward frees each right after its copy-out. So the largest unit&apos;s, %1, is there as forward begins, a layer&apos;s through the rest of forward, and none at the loss or in backward, where the layer prefetched is the second one gathered.</source>
        <translation>torch.cuda.max_memory_allocated 所见的 FSDP 聚合输出：前向传播中，每个单元的聚合输出保留到下一个单元拷出为止，最后一个在前向结束时释放；反向传播中，每个单元拷出后立即释放。因此最大单元的聚合输出 %1 只在前向开始时存在，前向其余部分只有一层的聚合输出，损失处与反向传播中都没有；反向中预取的那一层就是所聚合的第二层。</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO-3 also holds gathered what its parameter coordinator keeps for reuse and prefetches when forward turns into backward or, under full recomputation, from a layer&apos;s recomputation to its backward, whichever is more, and the largest trainable module&apos;s gradient.</source>
        <translation>DeepSpeed ZeRO-3 还持有参数协调器为复用而保留和预取的已聚合参数：取前向转入反向时、以及完全重计算下某层从重计算到其反向之间两者中较多者；另加最大可训练模块的梯度。</translation>
    </message>
</context>
<context>
    <name>vl::AssumptionsDialog</name>
    <message>
        <source>Assumptions</source>
        <translation>假设与约定</translation>
    </message>
</context>
<context>
    <name>vl::ChartPanel</name>
    <message>
        <source>&amp;Bars:</source>
        <translation>柱状(&amp;B)：</translation>
    </message>
    <message>
        <source>Pinned scenarios</source>
        <translation>已固定的方案</translation>
    </message>
    <message>
        <source>GPU counts</source>
        <translation>GPU 数量</translation>
    </message>
    <message>
        <source>ZeRO stages</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>Optimization ladder</source>
        <translation>优化阶梯</translation>
    </message>
    <message>
        <source>What the bars compare: your pinned scenarios beside the current one, the current scenario over 1–64 GPUs or ZeRO stages 0–3, or the article&apos;s levers applied one at a time until it fits the first chosen GPU.</source>
        <translation>柱状图比较的内容：已固定的方案与当前方案并列；当前方案在 1–64 张 GPU 或 ZeRO 0–3 阶段下的对比；或按文章的优化顺序逐步施加，直到放得进第一块选中的 GPU。</translation>
    </message>
    <message>
        <source>&amp;Pin current</source>
        <translation>固定当前方案(&amp;P)</translation>
    </message>
    <message>
        <source>Keep the current scenario as a bar to compare against. Right-click a pinned bar to rename, move or remove it.</source>
        <translation>把当前方案保留为一根柱子用于对比。右键点击已固定的柱子可重命名、移动或删除。</translation>
    </message>
    <message>
        <source>&amp;Fits by:</source>
        <translation>判定依据(&amp;F)：</translation>
    </message>
    <message>
        <source>sum of all parts</source>
        <translation>各部分之和</translation>
    </message>
    <message>
        <source>peak of the step</source>
        <translation>训练步峰值</translation>
    </message>
    <message>
        <source>GiB = 2³⁰ bytes (what nvidia-smi and PyTorch report); GB = 10⁹ bytes (papers, vendor labels).</source>
        <translation>GiB = 2³⁰ 字节（nvidia-smi 和 PyTorch 的单位）；GB = 10⁹ 字节（论文与厂商标称）。</translation>
    </message>
    <message>
        <source>Pin scenario</source>
        <translation>固定方案</translation>
    </message>
    <message>
        <source>Name for this bar:</source>
        <translation>这根柱子的名称：</translation>
    </message>
    <message>
        <source>Pin %1</source>
        <translation>方案 %1</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Rename pin</source>
        <translation>重命名方案</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Move left</source>
        <translation>左移</translation>
    </message>
    <message>
        <source>Move right</source>
        <translation>右移</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Levers…</source>
        <translation>优化手段…</translation>
    </message>
    <message>
        <source>Choose which of the article&apos;s levers the ladder tries, and in which order.</source>
        <translation>选择优化阶梯要尝试文章中的哪些手段，以及顺序。</translation>
    </message>
    <message>
        <source>Checked levers are tried from the top down, one at a time, until the scenario fits the first chosen GPU. Drag to reorder.</source>
        <translation>勾选的手段从上到下逐一尝试，直到方案放得进第一块选中的 GPU。拖动可调整顺序。</translation>
    </message>
    <message>
        <source>Peak: the most in use at any moment of the step, or of the run&apos;s start-up where a model is placed whole before it is sharded, from the timeline; the measured runs read within a few per cent of it. Sum: everything at once, as other tools count, an upper bound that adds buffers which never live together (the optimizer step&apos;s beside the loss&apos;s).</source>
        <translation>峰值：一步中任意时刻占用的最大值（若运行启动时模型在切分前被整体放上 GPU，则也包括启动时），取自时间线；实测运行的读数与它相差仅几个百分点。总和：所有部分同时计入，与其他工具的算法相同，是一个上界，会把从不同时存在的缓冲区（优化器步骤的与损失的）加在一起。</translation>
    </message>
</context>
<context>
    <name>vl::ControlPanel</name>
    <message>
        <source>lit-gpt</source>
        <translation>lit-gpt</translation>
    </message>
    <message>
        <source>As the weights</source>
        <translation>与权重相同</translation>
    </message>
    <message>
        <source>Frozen base</source>
        <translation>冻结的基座</translation>
    </message>
    <message>
        <source>The dtype of the weights that do not train. Under PyTorch autocast a model loaded in BF16 keeps them in BF16 (2 bytes each, never cast); loaded in FP32 they take 4 bytes and a 16-bit copy.</source>
        <translation>不训练的权重的数据类型。在 PyTorch autocast 下，以 BF16 加载的模型把它们保持为 BF16（每个 2 字节，从不转换）；以 FP32 加载则每个占 4 字节，外加一份 16 位副本。</translation>
    </message>
    <message>
        <source>Whole logits</source>
        <translation>整体计算</translation>
    </message>
    <message>
        <source>In %1 chunks</source>
        <translation>分 %1 块计算</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失计算</translation>
    </message>
    <message>
        <source>The loss upcasts the logits to FP32: all of them at once, or one chunk in %1 at a time (torchtune&apos;s chunked cross-entropy), which saves most of that copy with a large vocabulary.</source>
        <translation>损失函数把 logits 升为 FP32：一次全部升，或像 torchtune 的分块交叉熵那样每次只升 1/%1，大词表时可省下这份副本的大部分。</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Eager（显式计算）</translation>
    </message>
    <message>
        <source>PyTorch SDPA</source>
        <translation>PyTorch SDPA</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力实现</translation>
    </message>
    <message>
        <source>torchtitan</source>
        <translation>torchtitan</translation>
    </message>
    <message>
        <source>Layer code</source>
        <translation>层的实现代码</translation>
    </message>
    <message>
        <source>Megatron (fused)</source>
        <translation>Megatron（融合算子）</translation>
    </message>
    <message>
        <source>Hugging Face</source>
        <translation>Hugging Face</translation>
    </message>
    <message>
        <source>PyTorch autocast</source>
        <translation>PyTorch autocast</translation>
    </message>
    <message>
        <source>FP32 master copy</source>
        <translation>FP32 主副本</translation>
    </message>
    <message>
        <source>Mixed precision</source>
        <translation>混合精度实现</translation>
    </message>
    <message>
        <source>LoRA dropout</source>
        <translation>LoRA dropout</translation>
    </message>
    <message>
        <source>Each adapter keeps its own dropped copy of its input and a 1-byte mask for backward.</source>
        <translation>每个适配器为反向传播各自保存一份经 dropout 的输入副本和 1 字节掩码。</translation>
    </message>
    <message>
        <source>FP32 master copy: 16-bit weights and gradients plus an FP32 copy (Megatron, DeepSpeed). PyTorch autocast (Hugging Face Trainer, Lightning): FP32 weights and gradients, and a 16-bit copy of each weight kept from forward until its backward.</source>
        <translation>FP32 主副本：16 位权重和梯度，外加一份 FP32 副本（Megatron、DeepSpeed）。PyTorch autocast（Hugging Face Trainer、Lightning）：FP32 权重和梯度，且每个权重的 16 位副本从前向一直保留到它的反向。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Import config.json…</source>
        <translation>导入 config.json…</translation>
    </message>
    <message>
        <source>Read a Hugging Face config.json (or drop one on the window) and save it as your own preset.</source>
        <translation>读取 Hugging Face 的 config.json（也可以直接拖到窗口上），并保存为你自己的预设。</translation>
    </message>
    <message>
        <source>Start from a model you know. Editing its shape below makes it a custom model.</source>
        <translation>从熟悉的模型出发。在下面修改它的结构后会变成自定义模型。</translation>
    </message>
    <message>
        <source>Training step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <source>&amp;Batch size</source>
        <translation>批大小(&amp;B)</translation>
    </message>
    <message>
        <source>Micro-batch per GPU. Activations grow in proportion to it; parameters, gradients and optimizer states do not. Arrows double and halve; hold Shift for single steps.</source>
        <translation>每张 GPU 的微批大小。中间激活与它成正比；参数、梯度和优化器状态不受影响。方向键按 2 倍增减；按住 Shift 逐一调整。</translation>
    </message>
    <message>
        <source>&amp;Sequence length</source>
        <translation>序列长度(&amp;S)</translation>
    </message>
    <message>
        <source>Tokens per sample. Activations grow in proportion to it, and the attention scores with its square unless FlashAttention is on. Hold Shift for fine steps.</source>
        <translation>每个样本的 token 数。中间激活与它成正比；不开 FlashAttention 时，注意力分数随它的平方增长。按住 Shift 细调。</translation>
    </message>
    <message>
        <source>&amp;Hidden size</source>
        <translation>隐藏层大小(&amp;H)</translation>
    </message>
    <message>
        <source>Width h. Parameters grow with h², activations with h. Editing it makes the model custom.</source>
        <translation>宽度 h。参数量随 h² 增长，激活随 h 增长。修改后模型变为自定义。</translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation>层数(&amp;L)</translation>
    </message>
    <message>
        <source>Transformer layers L. Parameters and activations both grow in proportion.</source>
        <translation>Transformer 层数 L。参数和激活都与它成正比。</translation>
    </message>
    <message>
        <source>&amp;Precision</source>
        <translation>精度(&amp;P)</translation>
    </message>
    <message>
        <source>Compare against GPUs</source>
        <translation>对比的 GPU</translation>
    </message>
    <message>
        <source>Each checked GPU draws a capacity line at what nvidia-smi reports, and gets its own verdict.</source>
        <translation>每块勾选的 GPU 会按 nvidia-smi 报告的容量画一条容量线，并给出各自的结论。</translation>
    </message>
    <message>
        <source>%1: %2 reported (label %3)%4</source>
        <translation>%1：实报 %2（标称 %3）%4</translation>
    </message>
    <message>
        <source>, capacity not verified</source>
        <translation>，容量未经核实</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <source>Uncheck to fold these away and teach with the five main sliders.</source>
        <translation>取消勾选可收起这些选项，只用五个主滑块讲解。</translation>
    </message>
    <message>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>Heads a. Without FlashAttention each keeps an s×s score matrix: activations grow with a·s².</source>
        <translation>头数 a。不开 FlashAttention 时每个头都保留一个 s×s 的分数矩阵：激活随 a·s² 增长。</translation>
    </message>
    <message>
        <source>Key/value heads</source>
        <translation>键/值头数</translation>
    </message>
    <message>
        <source>GQA: fewer key/value heads shrink the K and V projections and their activations.</source>
        <translation>GQA：更少的键/值头会缩小 K、V 投影及其激活。</translation>
    </message>
    <message>
        <source>MLP size</source>
        <translation>MLP 大小</translation>
    </message>
    <message>
        <source>Intermediate size f: two (GELU) or three (SwiGLU) h×f matrices per layer, and f-wide activations.</source>
        <translation>中间层大小 f：每层两个（GELU）或三个（SwiGLU）h×f 矩阵，以及宽度为 f 的激活。</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>V: the embedding and LM head are V×h each, and the logits s·b·V — large vocabularies make a big logits item.</source>
        <translation>V：嵌入层和输出头各为 V×h，logits 为 s·b·V——词表越大，logits 这一项越大。</translation>
    </message>
    <message>
        <source>8-bit AdamW</source>
        <translation>8 位 AdamW</translation>
    </message>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>Lion</source>
        <translation>Lion</translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <source>FP16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Adam keeps two FP32 states per parameter (8 B) — often the largest part of the bill.</source>
        <translation>Adam 为每个参数保存两个 FP32 状态（8 字节）——往往是账单里最大的一项。</translation>
    </message>
    <message>
        <source>Mixed precision keeps an FP32 copy of the weights for the update (4 B/param). The article&apos;s 84 GB table leaves it out; uncheck to reproduce that table.</source>
        <translation>混合精度会为参数更新保留一份 FP32 权重副本（每参数 4 字节）。文章里 84 GB 的表格没算它；取消勾选即可复现那张表。</translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation>梯度数据类型</translation>
    </message>
    <message>
        <source>0 — no sharding</source>
        <translation>0 — 不切分</translation>
    </message>
    <message>
        <source>1 — optimizer states</source>
        <translation>1 — 切分优化器状态</translation>
    </message>
    <message>
        <source>2 — + gradients</source>
        <translation>2 — 再切分梯度</translation>
    </message>
    <message>
        <source>3 — + parameters</source>
        <translation>3 — 再切分参数</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <source>PyTorch FSDP</source>
        <translation>PyTorch FSDP</translation>
    </message>
    <message>
        <source>Sharding engine</source>
        <translation>分片引擎</translation>
    </message>
    <message>
        <source>Replica groups (HSDP)</source>
        <translation>副本组（HSDP）</translation>
    </message>
    <message>
        <source>FSDP&apos;s hybrid sharding: the data-parallel GPUs form this many groups; each group holds one sharded copy of the model states, so they divide by the group&apos;s size, not by all GPUs.</source>
        <translation>FSDP 的混合分片：数据并行的 GPU 分成这么多组；每组保存一份分片后的模型状态，所以模型状态除以组内 GPU 数，而不是全部 GPU 数。</translation>
    </message>
    <message>
        <source>Reshard after forward</source>
        <translation>前向后重新分片</translation>
    </message>
    <message>
        <source>FSDP frees each layer&apos;s gathered parameters after its forward and gathers them again in backward. Off (torchtitan&apos;s choice with pipelines), every layer stays gathered until its backward.</source>
        <translation>FSDP 在每层前向结束后释放聚合的参数，反向时再聚合一次。关闭时（torchtitan 在流水线并行下的选择），每层从前向到反向都保持聚合。</translation>
    </message>
    <message>
        <source>Shards model states over the data-parallel GPUs: stage 1 the optimizer states, stage 2 also gradients, stage 3 also parameters. The article&apos;s first lever.</source>
        <translation>把模型状态切分到数据并行的各张 GPU 上：阶段 1 切优化器状态，阶段 2 再切梯度，阶段 3 再切参数。文章里的第一招。</translation>
    </message>
    <message>
        <source>Data-parallel GPUs</source>
        <translation>数据并行 GPU 数</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Splits each layer&apos;s matrices and most activations over t GPUs.</source>
        <translation>把每层的矩阵和大部分激活切分到 t 张 GPU 上。</translation>
    </message>
    <message>
        <source>Pipeline stages</source>
        <translation>流水线阶段数</translation>
    </message>
    <message>
        <source>Context parallel</source>
        <translation>上下文并行</translation>
    </message>
    <message>
        <source>Expert parallel</source>
        <translation>专家并行</translation>
    </message>
    <message>
        <source>Vocabulary padded to</source>
        <translation>词表补齐到</translation>
    </message>
    <message>
        <source>Megatron pads the vocabulary to a multiple of this × the tensor-parallel size (its default 128): the embedding, the head and the logits grow with it. 1 keeps the vocabulary as given.</source>
        <translation>Megatron 把词表补齐到「此值 × 张量并行数」的倍数（默认 128）：嵌入层、输出头和 logits 随之变大。1 表示按原词表大小。</translation>
    </message>
    <message>
        <source>Mixture of experts: each GPU holds 1/e of every layer&apos;s experts. The e GPUs come out of the data-parallel ones, so an expert&apos;s optimizer states are sharded over e times fewer GPUs.</source>
        <translation>混合专家：每张 GPU 保存每层专家的 1/e。这 e 张 GPU 取自数据并行的 GPU，所以专家的优化器状态只在 1/e 的 GPU 上分片。</translation>
    </message>
    <message>
        <source>Splits each sequence over c GPUs (attention runs as a ring): activations divide by c, and the sharded states by data-parallel × c GPUs. Needs a flash attention kernel.</source>
        <translation>把每条序列切到 c 张 GPU 上（注意力以环形方式计算）：中间激活除以 c，分片的状态除以数据并行 × c 张 GPU。需要 flash 类注意力内核。</translation>
    </message>
    <message>
        <source>Each stage holds L/p layers; the first stage keeps up to p micro-batches of activations.</source>
        <translation>每个阶段持有 L/p 层；第一个阶段最多保留 p 个微批的激活。</translation>
    </message>
    <message>
        <source>Micro-batches per step</source>
        <translation>每步微批数</translation>
    </message>
    <message>
        <source>Auto (one per stage)</source>
        <translation>自动（每阶段一个）</translation>
    </message>
    <message>
        <source>Gradient accumulation; with pipelining it decides how many micro-batches are in flight. Auto: one per pipeline stage, so the 1F1B schedule runs with its pipeline full.</source>
        <translation>梯度累积；有流水线并行时，它决定同时在途的微批数。自动：每个流水线阶段一个，1F1B 调度的流水线是满的。</translation>
    </message>
    <message>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <source>With tensor parallelism, also splits the norm and dropout activations over t.</source>
        <translation>配合张量并行，把归一化和 dropout 的激活也切分到 t 张 GPU 上。</translation>
    </message>
    <message>
        <source>CPU offload</source>
        <translation>CPU 卸载</translation>
    </message>
    <message>
        <source>ZeRO-Offload moves the master copy and moments (and optionally parameters) to host memory.</source>
        <translation>ZeRO-Offload 把主副本和动量（也可包括参数）移到主机内存。</translation>
    </message>
    <message>
        <source>Recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>Dropout keeps 1-byte masks for backward; Llama-style training usually has none.</source>
        <translation>Dropout 要为反向传播保存 1 字节的掩码；Llama 类训练通常不用 dropout。</translation>
    </message>
    <message>
        <source>Full training</source>
        <translation>全量训练</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA (4-bit base)</source>
        <translation>QLoRA（4 位基座）</translation>
    </message>
    <message>
        <source>Fine-tuning</source>
        <translation>微调方式</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Adapters add r·(in + out) trainable parameters per adapted matrix.</source>
        <translation>每个被适配的矩阵增加 r·(in + out) 个可训练参数。</translation>
    </message>
    <message>
        <source>Allocator reserve</source>
        <translation>分配器预留</translation>
    </message>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>Mixed FP16</source>
        <translation>混合 FP16</translation>
    </message>
    <message>
        <source>Mixed BF16</source>
        <translation>混合 BF16</translation>
    </message>
    <message>
        <source>Pure BF16</source>
        <translation>纯 BF16</translation>
    </message>
    <message>
        <source>%1 (yours)</source>
        <translation>%1（我的）</translation>
    </message>
    <message>
        <source>Custom (%1 parameters)</source>
        <translation>自定义（%1 参数）</translation>
    </message>
    <message>
        <source>Custom GPU…</source>
        <translation>自定义 GPU…</translation>
    </message>
    <message>
        <source>Add a GPU of any capacity; it is saved with your own presets.</source>
        <translation>添加任意容量的 GPU；它会保存在你自己的预设中。</translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>FP32 (18 B/param)</source>
        <translation>FP32（每参数 18 字节）</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Optimizer + parameters</source>
        <translation>优化器状态 + 参数</translation>
    </message>
    <message>
        <source>Selective</source>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>完全重计算</translation>
    </message>
    <message>
        <source>Selective: recompute only the attention scores (with torchtitan: its op-level policy, which keeps every other matmul&apos;s output). Full (gradient checkpointing): keep only each layer&apos;s input and recompute the rest in backward (≈ 33 % more compute). The article&apos;s second lever.</source>
        <translation>选择性：只重算注意力分数（torchtitan 用它的算子级策略：每隔一个矩阵乘保存其输出）。完全重计算（梯度检查点）：只保留每层的输入，其余在反向传播时重算（计算量约多 33%）。文章里的第二招。</translation>
    </message>
    <message>
        <source>Freeze lower layers</source>
        <translation>冻结底部各层</translation>
    </message>
    <message>
        <source>Frozen weights need no gradients or optimizer states. Freeze: only the top layers train, and the frozen ones below keep no activations. LoRA trains small adapters only; QLoRA also stores the base in 4 bits.</source>
        <translation>冻结的权重不需要梯度和优化器状态。冻结：只训练顶部几层，下面冻结的层不保存激活。LoRA 只训练小的适配器；QLoRA 还把基座权重存为 4 位。</translation>
    </message>
    <message>
        <source>%1 (yours, replaces the built-in)</source>
        <translation>%1（我的，替代内置预设）</translation>
    </message>
    <message>
        <source>From Hugging Face…</source>
        <translation>从 Hugging Face 获取…</translation>
    </message>
    <message>
        <source>Fetch a model&apos;s config.json from the Hugging Face Hub by its id, e.g. meta-llama/Llama-3.1-8B, and save it as your own preset.</source>
        <translation>按模型 id（例如 meta-llama/Llama-3.1-8B）从 Hugging Face Hub 获取它的 config.json，并存为你自己的预设。</translation>
    </message>
    <message>
        <source>Tensors (allocated)</source>
        <translation>张量（allocated）</translation>
    </message>
    <message>
        <source>Reserved pool</source>
        <translation>预留内存池（reserved）</translation>
    </message>
    <message>
        <source>nvidia-smi</source>
        <translation>nvidia-smi（整个进程）</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>对照读数</translation>
    </message>
    <message>
        <source>Which reading of a real run the total predicts. Tensors: what torch.cuda.max_memory_allocated reports, the article&apos;s four parts. Reserved pool: max_memory_reserved, with the caching allocator&apos;s reserve. nvidia-smi: the whole process, also the CUDA context and NCCL buffers; GPU capacities are nvidia-smi readings, so this is the safe choice for a plan.</source>
        <translation>总量预测的是真实运行的哪一个读数。张量：torch.cuda.max_memory_allocated 报告的量，即文章的四大块。预留内存池：max_memory_reserved，含缓存分配器的预留。nvidia-smi：整个进程的用量，还包括 CUDA 上下文和 NCCL 缓冲区；GPU 容量就是 nvidia-smi 的读数，所以做规划时这是稳妥的选择。</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <source>DeepSpeed ZeRO</source>
        <translation>DeepSpeed ZeRO</translation>
    </message>
    <message>
        <source>Megatron-Core</source>
        <translation>Megatron-Core</translation>
    </message>
    <message>
        <source>Engine&apos;s default</source>
        <translation>引擎默认</translation>
    </message>
    <message>
        <source>FP32 gradient accumulation makes mixed precision 18 bytes per parameter instead of 16. The engine&apos;s default: the weights&apos; dtype, FP32 under Megatron-Core.</source>
        <translation>用 FP32 累积梯度会让混合精度变成每参数 18 字节，而不是 16 字节。引擎默认：与权重的数据类型相同，Megatron-Core 下为 FP32。</translation>
    </message>
    <message>
        <source>FP32: 4 B per weight and gradient. Mixed FP16/BF16: 2 B each plus an FP32 master copy (4 B) in the optimizer states. Pure BF16: no master copy, BF16 optimizer moments. FP8: Megatron-LM with Transformer Engine, mixed BF16 plus an FP8 copy and transpose of every linear weight, the linears&apos; inputs kept in 1 B.</source>
        <translation>FP32：每个权重和梯度 4 字节。混合精度 FP16/BF16：各 2 字节，另在优化器状态里保留一份 FP32 主副本（4 字节）。纯 BF16：没有主副本，优化器动量也用 BF16。FP8：Megatron-LM 配合 Transformer Engine，在混合 BF16 之外为每个线性层权重保留 FP8 副本和转置，线性层的输入以 1 字节保存。</translation>
    </message>
    <message>
        <source>FP8</source>
        <translation>FP8</translation>
    </message>
    <message>
        <source>Lazy (CUDA 11.7+)</source>
        <translation>延迟加载（CUDA 11.7+）</translation>
    </message>
    <message>
        <source>Eager (older CUDA)</source>
        <translation>立即加载（较旧的 CUDA）</translation>
    </message>
    <message>
        <source>CUDA kernels</source>
        <translation>CUDA 内核</translation>
    </message>
    <message>
        <source>How CUDA loads kernels into the context nvidia-smi counts. Lazy: each kernel on its first use, about 400 MiB (CUDA 11.7 or later with PyTorch 1.13 or later, CUDA 12.2 or later anywhere). Eager: every kernel of every library at start, 1343 MiB measured on a V100 with CUDA 11.2 (older CUDA, or CUDA_MODULE_LOADING=EAGER).</source>
        <translation>CUDA 如何把内核加载进 nvidia-smi 计入的上下文。延迟：每个内核首次使用时才加载，约 400 MiB（CUDA 11.7 及以上配合 PyTorch 1.13 及以上；CUDA 12.2 及以上则处处如此）。立即：启动时加载所有库的全部内核，在 V100、CUDA 11.2 上实测 1343 MiB（较旧的 CUDA，或设置了 CUDA_MODULE_LOADING=EAGER）。</translation>
    </message>
    <message>
        <source>Accumulate without sync</source>
        <translation>不同步地累积</translation>
    </message>
    <message>
        <source>Double quantization</source>
        <translation>双重量化</translation>
    </message>
    <message>
        <source>QLoRA stores each block of 64 weights with a scale. Double quantization stores the scales in 8 bits too: 4.127 bits per weight instead of 4.5 (the QLoRA paper&apos;s recipe; transformers&apos; BitsAndBytesConfig leaves it off unless asked).</source>
        <translation>QLoRA 每 64 个权重为一块，各带一个缩放系数。双重量化把这些缩放系数也存成 8 位：每个权重 4.127 位而不是 4.5 位（QLoRA 论文的做法；transformers 的 BitsAndBytesConfig 默认不开启）。</translation>
    </message>
    <message>
        <source>Offload activations</source>
        <translation>激活卸载到 CPU</translation>
    </message>
    <message>
        <source>Copy what each layer keeps for backward to CPU memory during forward and back during backward (torchtune&apos;s activation offloading). The GPU then holds about one layer&apos;s worth at a time, five layers&apos; inputs with checkpointing; the step gets slower if the copies cannot overlap.</source>
        <translation>前向时把每层为反向保存的张量复制到 CPU 内存，反向时再拷回（torchtune 的激活卸载）。GPU 上同一时刻只留大约一层的量，开启检查点时是五层的输入；拷贝若不能与计算重叠，训练步会变慢。</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 作用位置</translation>
    </message>
    <message>
        <source>Paged optimizer</source>
        <translation>分页优化器</translation>
    </message>
    <message>
        <source>bitsandbytes&apos; paged optimizers (the QLoRA paper&apos;s recipe) keep the states of large tensors in memory the driver moves to the CPU when the GPU runs short, so they cannot run it out of memory. Small tensors&apos; states stay on the GPU.</source>
        <translation>bitsandbytes 的分页优化器（QLoRA 论文的做法）把大张量的状态放在统一内存里：GPU 显存不够时，驱动会把它们换到 CPU 内存，因此不会因它们而显存溢出。小张量的状态仍留在 GPU 上。</translation>
    </message>
    <message>
        <source>As the code runs it</source>
        <translation>按所选代码</translation>
    </message>
    <message>
        <source>For-loop</source>
        <translation>逐张量循环</translation>
    </message>
    <message>
        <source>Foreach</source>
        <translation>Foreach（批量）</translation>
    </message>
    <message>
        <source>Fused</source>
        <translation>融合内核</translation>
    </message>
    <message>
        <source>AdamW step</source>
        <translation>AdamW 更新方式</translation>
    </message>
    <message>
        <source>Optimizer in backward</source>
        <translation>反向中更新</translation>
    </message>
    <message>
        <source>torchtune&apos;s optimizer_in_bwd: each weight is updated as soon as its gradient is ready and the gradient is freed, so only one weight&apos;s gradient exists at a time. Needs one micro-batch per step.</source>
        <translation>torchtune 的 optimizer_in_bwd：每个权重的梯度一算好就立即更新该权重并释放梯度，因此同一时刻只存在一个权重的梯度。要求每步只有一个微批。</translation>
    </message>
    <message>
        <source>Gradients kept between steps</source>
        <translation>两步之间保留梯度</translation>
    </message>
    <message>
        <source>zero_grad(set_to_none=False), PyTorch 1&apos;s default, zeroes the gradients instead of freeing them: they stay on the GPU through the next forward, which raises the step&apos;s peak.</source>
        <translation>zero_grad(set_to_none=False)（PyTorch 1 的默认）把梯度清零而不释放：它们在下一次前向时仍留在 GPU 上，训练步峰值因此升高。</translation>
    </message>
    <message>
        <source>2.2 or newer</source>
        <translation>2.2 或更新</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>Liger kernels</source>
        <translation>Liger 内核</translation>
    </message>
    <message>
        <source>Liger Kernel&apos;s patch of Hugging Face&apos;s Llama-family code (TRL&apos;s use_liger_kernel): its norms and MLP keep less for backward, and its fused loss computes the output layer&apos;s gradients chunk by chunk without ever holding the whole logits.</source>
        <translation>Liger Kernel 对 Hugging Face Llama 系列代码的补丁（TRL 的 use_liger_kernel）：其归一化和 MLP 为反向保留得更少，其融合损失逐块算出输出层的梯度，从不持有完整的 logits。</translation>
    </message>
    <message>
        <source>Fragmentation and cached blocks, as a share of what is allocated at the step&apos;s peak (commonly 5–30 %).</source>
        <translation>碎片和缓存块，按步骤峰值时已分配内存的比例计（通常 5–30%）。</translation>
    </message>
    <message>
        <source>Compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <source>The major number of the GPU&apos;s compute capability; the first GPU checked sets it. PyTorch gives cuBLAS a workspace for forward&apos;s thread and one for backward&apos;s: 32 MiB each from 9 on, 8 MiB before.</source>
        <translation>GPU 计算能力的主版本号，由勾选的第一块 GPU 设定。PyTorch 为前向线程和反向线程各给 cuBLAS 一块工作区：9 及以上每块 32 MiB，之前为 8 MiB。</translation>
    </message>
    <message>
        <source>N: ZeRO divides the sharded states by N (by N × c with context parallelism).</source>
        <translation>N：ZeRO 把被切分的状态除以 N（有上下文并行时除以 N × c）。</translation>
    </message>
    <message>
        <source>1.10 or older</source>
        <translation>1.10 或更早</translation>
    </message>
    <message>
        <source>The PyTorch release the run uses. Before 2.2, torch.mean kept its input for backward, so each RMSNorm that Hugging Face, lit-gpt or torchtitan write with mean keeps one more copy of the layer&apos;s width per token. Before 1.11, softmax and log_softmax kept their input too: eager attention keeps its scores beside the probabilities, and the loss its FP32 logits.</source>
        <translation>训练所用的 PyTorch 版本。2.2 之前，torch.mean 会为反向保留其输入，因此 Hugging Face、lit-gpt 或 torchtitan 用 mean 写成的每个 RMSNorm 每个 token 都多保留一份层宽度的副本。1.11 之前，softmax 和 log_softmax 也会保留其输入：eager 注意力在概率之外还保留其分数，损失保留其 FP32 logits。</translation>
    </message>
    <message>
        <source>torchtune</source>
        <translation>torchtune</translation>
    </message>
    <message>
        <source>Which code computes each layer decides what it keeps for backward. Megatron&apos;s fused kernels keep what the papers count; Hugging Face transformers&apos; Llama code also keeps FP32 norm inputs, the softmax in FP32 and separate MLP products; torchtitan its Llama block; lit-gpt its Llama and GPT-NeoX blocks as its LoRA script trains them in BF16; torchtune its Llama block with its RoPE cache (every tensor checked against PyTorch).</source>
        <translation>每层由哪套代码计算，决定了它为反向传播保存什么。Megatron 的融合算子保存论文所计的张量；Hugging Face transformers 的 Llama 代码还保存 FP32 的归一化输入、FP32 的 softmax 以及各自独立的 MLP 乘积；torchtitan 按它的 Llama 块；lit-gpt 按它的 Llama 和 GPT-NeoX 块，以其 LoRA 脚本的 BF16 方式训练；torchtune 按它的 Llama 块及其 RoPE 缓存（每个张量都已与 PyTorch 核对）。</translation>
    </message>
    <message>
        <source>Packed samples</source>
        <translation>样本打包</translation>
    </message>
    <message>
        <source>torchtune&apos;s packed dataset: several samples share each row and positions restart with each sample. Its RoPE then gathers its cache&apos;s rows for every layer&apos;s query and key and keeps them for backward.</source>
        <translation>torchtune 的打包数据集：多个样本共用一行，位置随每个样本重新从零开始。此时它的 RoPE 会为每层的 query 和 key 按位置从缓存中取出对应行，并为反向传播保留。</translation>
    </message>
    <message>
        <source>Max positions</source>
        <translation>最大位置数</translation>
    </message>
    <message>
        <source>The positions the model is built for (config.json&apos;s max_position_embeddings). torchtune keeps a rotary table for every one of them in FP32, 64 MiB for Llama 3.1&apos;s 131072; 0: the sequence length.</source>
        <translation>模型设计支持的位置数（config.json 的 max_position_embeddings）。torchtune 为其中每个位置都以 FP32 保留一张旋转位置编码表，Llama 3.1 的 131072 个位置为 64 MiB；0 表示取序列长度。</translation>
    </message>
    <message>
        <source>Mask from the data loader</source>
        <translation>数据加载器的掩码</translation>
    </message>
    <message>
        <source>Megatron-LM&apos;s data loader builds each sample&apos;s causal attention mask, s × s booleans, and keeps it on the GPU while the micro-batch runs forward: 1 GiB a sample at s = 32768. Its default; --no-create-attention-mask-in-dataloader turns it off. Only Megatron-LM&apos;s training loop (sharding engine: Megatron-Core) has it.</source>
        <translation>Megatron-LM 的数据加载器为每个样本构建因果注意力掩码（s × s 个布尔值），并在微批次前向期间保留在 GPU 上：s = 32768 时每个样本 1 GiB。这是它的默认行为；--no-create-attention-mask-in-dataloader 可关闭。只有 Megatron-LM 的训练循环（分片引擎：Megatron-Core）才有它。</translation>
    </message>
    <message>
        <source>Grouped GEMM (MoE)</source>
        <translation>分组 GEMM（MoE）</translation>
    </message>
    <message>
        <source>Megatron&apos;s --moe-grouped-gemm: Transformer Engine computes all of a GPU&apos;s experts in one grouped matmul spread over its 4 cuBLAS streams, each with a workspace of its own (32 MiB on Hopper).</source>
        <translation>Megatron 的 --moe-grouped-gemm：Transformer Engine 用一次分组矩阵乘法计算本 GPU 的全部专家，分布在它的 4 个 cuBLAS 流上，每个流有自己的工作区（Hopper 上 32 MiB）。</translation>
    </message>
    <message>
        <source>Rerun check keeps the batches</source>
        <translation>重跑检查保留批次</translation>
    </message>
    <message>
        <source>Megatron-LM&apos;s rerun state machine keeps every micro-batch of a step so that it can replay the step if a result looks wrong; since May 2026 these are the GPU copies, masks included, kept until the next step begins on the GPU that reads the data loader. Its default (--rerun-mode validate_results); --rerun-mode disabled, or an older Megatron-LM, frees each micro-batch after its forward. Only Megatron-LM&apos;s training loop (sharding engine: Megatron-Core) has it.</source>
        <translation>Megatron-LM 的重跑状态机会保留一步中的每个微批次，以便结果异常时重放这一步；自 2026 年 5 月起保留的是 GPU 上的副本（包括掩码），在读取数据加载器的 GPU 上一直留到下一步开始。这是它的默认行为（--rerun-mode validate_results）；--rerun-mode disabled 或较旧的 Megatron-LM 会在每个微批次前向之后释放它。只有 Megatron-LM 的训练循环（分片引擎：Megatron-Core）才有它。</translation>
    </message>
    <message>
        <source>Gradients as bucket views</source>
        <translation>梯度作为桶视图</translation>
    </message>
    <message>
        <source>Without sharding, PyTorch&apos;s DistributedDataParallel averages the gradients in flat buckets. Off (PyTorch&apos;s default, and Hugging Face&apos;s and Lightning&apos;s): every gradient is copied into them, so the buckets hold a second copy of all gradients from the start. On (gradient_as_bucket_view=True): the gradients live in the buckets themselves, for the whole step.</source>
        <translation>不分片时，PyTorch 的 DistributedDataParallel 在扁平的桶中对梯度求平均。关闭（PyTorch 的默认，Hugging Face 和 Lightning 也是如此）：每个梯度都被复制进桶，所以桶从一开始就保存着全部梯度的第二份副本。开启（gradient_as_bucket_view=True）：梯度就存放在桶里，贯穿整个训练步。</translation>
    </message>
    <message>
        <source>Overlap communication</source>
        <translation>通信重叠</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s overlap_comm at ZeRO stage 1 or 2: backward fills one gradient bucket while the other is being reduced, so it allocates two (reduce_bucket_size elements each, 1 GB in 16 bits by default). Off is DeepSpeed&apos;s default below stage 3; Hugging Face&apos;s sample configurations turn it on.</source>
        <translation>DeepSpeed 在 ZeRO 阶段 1 或 2 的 overlap_comm：反向在归约一个梯度桶的同时填充另一个，因此分配两个（各 reduce_bucket_size 个元素，默认 16 位下为 1 GB）。关闭是 DeepSpeed 在阶段 3 以下的默认；Hugging Face 的示例配置将其打开。</translation>
    </message>
    <message>
        <source>2.1</source>
        <translation>2.1</translation>
    </message>
    <message>
        <source>1.11 to 2.0</source>
        <translation>1.11 至 2.0</translation>
    </message>
    <message>
        <source>transformers AdamW</source>
        <translation>transformers 的 AdamW</translation>
    </message>
    <message>
        <source>How PyTorch&apos;s AdamW updates: foreach works on all tensors at once and briefly needs one more copy of the second moment; for-loop one tensor at a time, briefly holding three tensor-sized intermediates; a fused kernel needs nothing extra. transformers&apos; own AdamW (the Trainer&apos;s old adamw_hf) loops holding two. As the code runs it: foreach in lit-gpt&apos;s scripts, fused in Hugging Face&apos;s Trainer (PyTorch 2.8 on), torchtitan, Megatron and DeepSpeed.</source>
        <translation>PyTorch 的 AdamW 如何更新：foreach 一次处理所有张量，短暂多需要一份二阶矩大小的内存；for-loop 每次一个张量，短暂持有三个张量大小的中间结果；融合内核不需要额外内存。transformers 自带的 AdamW（Trainer 旧的 adamw_hf）循环时持有两个。按代码实际运行：lit-gpt 的脚本用 foreach，Hugging Face 的 Trainer（PyTorch 2.8 起）、torchtitan、Megatron 和 DeepSpeed 用融合版本。</translation>
    </message>
    <message>
        <source>NVLink SHARP</source>
        <translation>NVLink SHARP</translation>
    </message>
    <message>
        <source>The node&apos;s GPUs hang off an NVSwitch that reduces in the switch (HGX and DGX H100, H200, B200); the GPU chosen sets it. NCCL then maps NVLS buffers, outside PyTorch&apos;s allocator, for each process group with more than two of the node&apos;s GPUs.</source>
        <translation>节点的 GPU 接在能在交换机内做归约的 NVSwitch 上（HGX 与 DGX H100、H200、B200）；由所选 GPU 设定。此时 NCCL 会在 PyTorch 分配器之外，为每个包含该节点两块以上 GPU 的进程组映射 NVLS 缓冲区。</translation>
    </message>
    <message>
        <source>2.17–2.20</source>
        <translation>2.17–2.20</translation>
    </message>
    <message>
        <source>NCCL release</source>
        <translation>NCCL 版本</translation>
    </message>
    <message>
        <source>2.22 or later</source>
        <translation>2.22 及以后</translation>
    </message>
    <message>
        <source>2.21</source>
        <translation>2.21</translation>
    </message>
    <message>
        <source>GPUs in one machine. They share its CPU memory: each GPU&apos;s process keeps its own offloaded states and buffers there, so the node needs them this many times. On an NVSwitch that does NVLink SHARP, NCCL&apos;s NVLS buffers grow with how many of a process group&apos;s GPUs share it.</source>
        <translation>一台机器中的 GPU 数。它们共用机器的 CPU 内存：每张 GPU 的进程都在那里保存自己卸载的状态和缓冲区，所以整个节点要乘以这个数。在支持 NVLink SHARP 的 NVSwitch 上，NCCL 的 NVLS 缓冲区随一个进程组中共用该交换机的 GPU 数增长。</translation>
    </message>
    <message>
        <source>The NCCL library the run links; PyTorch&apos;s wheels pin one (torch 2.2.0: NCCL 2.19.3). For a process group, each GPU maps NVLS buffers of 192 MiB per GPU of the node in the group up to 2.20 (1.5 GiB with 8) and 96 MiB in 2.21, for every group; from 2.22 32 MiB, and only for the groups whose collectives run NVLS.</source>
        <translation>训练所链接的 NCCL 库；PyTorch 的 wheel 固定了版本（torch 2.2.0：NCCL 2.19.3）。对一个进程组，每块 GPU 按该组在本节点上的每块 GPU 映射 NVLS 缓冲区：到 2.20 为止每块 192 MiB（8 块共 1.5 GiB），2.21 为 96 MiB，且每个进程组都有；2.22 起为 32 MiB，且只为集合通信用到 NVLS 的进程组映射。</translation>
    </message>
    <message>
        <source>Built partitioned (zero.Init)</source>
        <translation>构建时即切分（zero.Init）</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s zero.Init at ZeRO stage 3: Hugging Face&apos;s from_pretrained builds the model already partitioned when the DeepSpeed configuration exists first (accelerate&apos;s zero3_init_flag). Off: the model is built whole in CPU memory, and DeepSpeed moves it whole onto every GPU before partitioning it, so the run&apos;s start-up needs the whole model on each GPU. A 4-bit model is always loaded that way.</source>
        <translation>DeepSpeed 在 ZeRO 阶段 3 的 zero.Init：若 DeepSpeed 配置先于模型存在（accelerate 的 zero3_init_flag），Hugging Face 的 from_pretrained 构建模型时即已切分。关闭：模型在 CPU 内存中整体构建，DeepSpeed 在切分之前把它整体移到每张 GPU 上，因此运行启动时每张 GPU 需要容纳整个模型。4 位模型总是以这种方式加载。</translation>
    </message>
    <message>
        <source>FSDP2 (fully_shard)</source>
        <translation>FSDP2（fully_shard）</translation>
    </message>
    <message>
        <source>FSDP1 (flat parameters)</source>
        <translation>FSDP1（扁平参数）</translation>
    </message>
    <message>
        <source>Who shards. DeepSpeed ZeRO (stages 1–3) keeps gathered what it will use again soon and prefetches ahead. PyTorch FSDP (stage 3) keeps FP32 shards, gathers the embedding and head for the whole step and, in 16 bits, one layer at a time in forward and two in backward. Megatron-Core (stages 0–1) keeps FP32 gradients; at stage 1 its distributed optimizer shards the optimizer states.</source>
        <translation>由谁来切分。DeepSpeed ZeRO（第 1–3 阶段）会把很快要再用的参数保持聚合，并提前预取。PyTorch FSDP（第 3 阶段）保存 FP32 分片，整个训练步都聚合嵌入层和输出头，并以 16 位在前向时每次聚合一层、反向时两层。Megatron-Core（第 0–1 阶段）保存 FP32 梯度；在第 1 阶段由其分布式优化器切分优化器状态。</translation>
    </message>
    <message>
        <source>FSDP version</source>
        <translation>FSDP 版本</translation>
    </message>
    <message>
        <source>Which FSDP. FSDP2 (fully_shard: torchtitan, torchtune) gathers each layer into an all-gather buffer and copies it out into the parameters. FSDP1 (FullyShardedDataParallel: accelerate, the Hugging Face Trainer, Lightning) gathers each layer straight into one flat parameter, so it needs no second copy. Choosing the layer code sets the one it wraps.</source>
        <translation>用哪个 FSDP。FSDP2（fully_shard：torchtitan、torchtune）把每层聚合到一个 all-gather 缓冲区，再拷出到各个参数。FSDP1（FullyShardedDataParallel：accelerate、Hugging Face Trainer、Lightning）把每层直接聚合进一个扁平参数，因此不需要第二份副本。选择层的实现代码时，会随之选用该代码所封装的版本。</translation>
    </message>
    <message>
        <source>RoPE tables in every layer</source>
        <translation>每层各有 RoPE 表</translation>
    </message>
    <message>
        <source>FSDP1 keeps the original parameters</source>
        <translation>FSDP1 保留原始参数</translation>
    </message>
    <message>
        <source>FSDP1&apos;s use_orig_params, on in accelerate, the Hugging Face Trainer and Lightning: the optimizer sees the model&apos;s own parameters, whose gradients are slices of one flat gradient per layer. zero_grad drops the slices, and FSDP frees the flat gradients only when the next forward starts, so the gradients stay in memory between steps.</source>
        <translation>FSDP1 的 use_orig_params（accelerate、Hugging Face Trainer 和 Lightning 默认开启）：优化器看到的是模型自己的参数，它们的梯度是每层一个扁平梯度的切片。zero_grad 只丢掉这些切片，FSDP 要到下一次前向开始时才释放扁平梯度，所以梯度在两步之间仍占着显存。</translation>
    </message>
    <message>
        <source>With several micro-batches a step, FSDP can skip the gradient reduce-scatter until the last one (no_sync: accelerate&apos;s gradient accumulation, which the Hugging Face Trainer uses, and Lightning Fabric&apos;s no_backward_sync do this). Each GPU then keeps the unsharded gradients of everything it trains for the whole step. Off: every micro-batch reduce-scatters, as torchtitan and torchtune do. Choosing the layer code sets what it does.</source>
        <translation>每步有多个微批次时，FSDP 可以把梯度的 reduce-scatter 推迟到最后一个（no_sync：Hugging Face Trainer 所用的 accelerate 梯度累积和 Lightning Fabric 的 no_backward_sync 都这样做）。这样每张 GPU 整步都保留它所训练参数的未分片梯度。关闭：每个微批次都做 reduce-scatter，torchtitan 和 torchtune 就是这样。选择层代码会随之设定。</translation>
    </message>
    <message>
        <source>4.49 or newer</source>
        <translation>4.49 或更新</translation>
    </message>
    <message>
        <source>4.46 to 4.48</source>
        <translation>4.46 至 4.48</translation>
    </message>
    <message>
        <source>4.45 or older</source>
        <translation>4.45 或更早</translation>
    </message>
    <message>
        <source>transformers</source>
        <translation>transformers</translation>
    </message>
    <message>
        <source>The transformers release whose loss a Llama-family model computes. Before 4.49 the loss makes a shifted FP32 copy of the logits; from 4.46 it upcasts them while the model still holds its 16-bit logits, before 4.46 the FP32 logits replace them. With a large vocabulary this decides the peak at the loss.</source>
        <translation>Llama 系模型计算损失所用的 transformers 版本。4.49 之前，损失会为 logits 做一份移位后的 FP32 副本；从 4.46 起，它在模型仍持有 16 位 logits 时进行上转换，4.46 之前则由 FP32 logits 取而代之。词表很大时，这决定了损失处的峰值。</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s Mistral and Mixtral code before transformers 4.42, and its Llama code before 4.40, gives every attention layer its own rotary embedding, which keeps cos and sin tables for all the model&apos;s positions (max positions) from the start. Tick it for a run on such a release.</source>
        <translation>transformers 4.42 之前的 Hugging Face Mistral 与 Mixtral 代码，以及 4.40 之前的 Llama 代码，都为每个注意力层各建一个旋转位置编码，一开始就为模型的全部位置（最大位置数）保存 cos 与 sin 表。若训练用的是这样的版本，请勾选。</translation>
    </message>
    <message>
        <source>0.43.2 or newer</source>
        <translation>0.43.2 或更新</translation>
    </message>
    <message>
        <source>0.43.1 or older</source>
        <translation>0.43.1 或更早</translation>
    </message>
    <message>
        <source>bitsandbytes</source>
        <translation>bitsandbytes</translation>
    </message>
    <message>
        <source>The bitsandbytes release that runs QLoRA&apos;s 4-bit layers (Hugging Face&apos;s and lit-gpt&apos;s code). Before 0.43.2 every 4-bit layer kept its input for backward, which only the weight&apos;s gradient would need: one more copy of each layer&apos;s inputs.</source>
        <translation>运行 QLoRA 4 位层的 bitsandbytes 版本（Hugging Face 与 lit-gpt 的代码）。0.43.2 之前，每个 4 位层都为反向传播保留其输入，而只有权重的梯度才需要它：每层的输入多存一份。</translation>
    </message>
    <message>
        <source>Reentrant checkpoint</source>
        <translation>可重入检查点</translation>
    </message>
    <message>
        <source>K and V copied to every head</source>
        <translation>K、V 复制到每个头</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s Mistral, Mixtral and Qwen2 code before transformers 4.48 copies each layer&apos;s keys and values to every attention head before flash attention, and so does SDPA in those releases; the kernel keeps the copies for backward. Tick it for a run on such a release.</source>
        <translation>transformers 4.48 之前，Hugging Face 的 Mistral、Mixtral 和 Qwen2 代码在调用 flash attention 之前把每层的键和值复制到每个注意力头，这些版本里的 SDPA 也是如此；内核为反向保存的是这些副本。用这类版本训练时请勾选。</translation>
    </message>
    <message>
        <source>FP32 adapters</source>
        <translation>FP32 适配器</translation>
    </message>
    <message>
        <source>Even share</source>
        <translation>平均分配</translation>
    </message>
    <message>
        <source>Every token (worst case)</source>
        <translation>每个 token（最坏情况）</translation>
    </message>
    <message>
        <source>Busiest expert (MoE)</source>
        <translation>最忙的专家（MoE）</translation>
    </message>
    <message>
        <source>Hugging Face&apos;s MoE block runs its experts one after another, and the tokens of the one computing at its widest moment set that moment&apos;s size. Even share: each expert gets k/e of the tokens. Every token: the most routing can send one expert (each token picks k different experts); real routing lies in between, so this is the safe choice for planning.</source>
        <translation>Hugging Face 的 MoE 块逐个运行各专家，其最宽时刻正在计算的那个专家分到多少 token，就决定了那一刻的大小。平均分配：每个专家得到 k/e 的 token。每个 token：路由最多能送给一个专家的量（每个 token 选 k 个不同的专家）；实际路由介于两者之间，所以规划时这是稳妥的选择。</translation>
    </message>
    <message>
        <source>PEFT 0.12 and later turn the adapters of a model trained in 16 bits into FP32 by default: their weights, gradients and optimizer states take 4 bytes each, and every adapter copies its input to FP32 and keeps it for backward. Untick it for an older release. QLoRA&apos;s adapters are FP32 in every release unless FSDP or ZeRO-3 shards its 4-bit weights.</source>
        <translation>PEFT 0.12 及以后默认把以 16 位训练的模型的适配器转成 FP32：它们的权重、梯度和优化器状态每个占 4 字节，每个适配器还把输入复制成 FP32 并为反向保存下来。用更早的版本时请取消勾选。QLoRA 的适配器在各个版本中都是 FP32，除非 FSDP 或 ZeRO-3 切分了它的 4 位权重。</translation>
    </message>
    <message>
        <source>How Hugging Face&apos;s gradient checkpointing calls torch.utils.checkpoint (use_reentrant; on by default in transformers). On: while a layer&apos;s backward runs, the checkpoint also holds the layer&apos;s recomputed output. Off: it is dropped, but with bitsandbytes 0.43.1 or older every layer&apos;s 4-bit inputs stay until the step ends.</source>
        <translation>Hugging Face 的梯度检查点如何调用 torch.utils.checkpoint（use_reentrant；transformers 默认开启）。开启：某层做反向传播时，检查点还持有该层重算出的输出。关闭：该输出被丢弃，但若 bitsandbytes 为 0.43.1 或更早，每一层 4 位线性层的输入会一直保留到这一步结束。</translation>
    </message>
    <message>
        <source>Which projections get adapters: query, key, value and output of attention, the MLP&apos;s gate, up and down (in a mixture of experts, every expert&apos;s w1, w3 and w2), the router of a mixture of experts, and the LM head. Each adds its adapters and what they keep for backward.</source>
        <translation>哪些投影加上适配器：注意力的 query、key、value 和 output，MLP 的 gate、up 和 down（混合专家模型中为每个专家的 w1、w3 和 w2），混合专家模型的路由器，以及 LM 头。每一项都会增加它的适配器参数和它们为反向保存的张量。</translation>
    </message>
    <message>
        <source>Eager attention keeps the s×s scores for backward: activations grow with s². PyTorch&apos;s SDPA (its flash kernel) and FlashAttention never store them, but for an FP32 model with fewer KV heads than heads SDPA runs its math kernel, which does.</source>
        <translation>Eager 注意力为反向传播保存 s×s 的注意力分数：激活随 s² 增长。PyTorch 的 SDPA（其 flash 内核）和 FlashAttention 从不保存它们；但对于 KV 头少于注意力头的 FP32 模型，SDPA 运行其 math 内核，会保存它们。</translation>
    </message>
    <message>
        <source>Batches padded, not packed</source>
        <translation>批次填充而非打包</translation>
    </message>
    <message>
        <source>When the batch&apos;s rows are padded to one length (not packed), Hugging Face hands SDPA the padding mask: keys and values are copied to every head, and SDPA&apos;s memory-efficient kernel keeps the mask, s×s per sequence, for every layer&apos;s backward.</source>
        <translation>当批次中的各行被填充到同一长度（而非打包）时，Hugging Face 会把填充掩码交给 SDPA：key 和 value 被复制到每个注意力头，SDPA 的 memory-efficient 内核为每一层的反向传播保存该掩码，每条序列 s×s。</translation>
    </message>
</context>
<context>
    <name>vl::CustomGpuDialog</name>
    <message>
        <source>Custom GPU</source>
        <translation>自定义 GPU</translation>
    </message>
    <message>
        <source>My GPU</source>
        <translation>我的 GPU</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Memory as the driver reports it: nvidia-smi&apos;s MiB ÷ 1024.</source>
        <translation>驱动报告的显存：即 nvidia-smi 的 MiB ÷ 1024。</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>显存：</translation>
    </message>
    <message>
        <source>Not known, or not NVIDIA</source>
        <translation>未知，或非 NVIDIA</translation>
    </message>
    <message>
        <source>Checked first, the GPU sets the scenario&apos;s compute capability, which sizes cuBLAS&apos;s workspaces; left unknown, it leaves the scenario&apos;s as it is.</source>
        <translation>勾选为第一块时，该 GPU 设定方案的计算能力（决定 cuBLAS 工作区大小）；未知时方案保持原值。</translation>
    </message>
    <message>
        <source>Compute capability:</source>
        <translation>计算能力：</translation>
    </message>
</context>
<context>
    <name>vl::DocumentHistory</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Compare against GPUs</source>
        <translation>对比的 GPU</translation>
    </message>
    <message>
        <source>Units</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Pinned scenarios</source>
        <translation>已固定的方案</translation>
    </message>
    <message>
        <source>%1, %2 and more</source>
        <translation>%1、%2 等</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>New scenario</source>
        <translation>新建方案</translation>
    </message>
</context>
<context>
    <name>vl::ExplanationPanel</name>
    <message>
        <source>Component</source>
        <translation>组成部分</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>How it is counted</source>
        <translation>怎么算的</translation>
    </message>
    <message>
        <source>%1 % of the total</source>
        <translation>占总量 %1%</translation>
    </message>
    <message>
        <source>What would cut it most (the article&apos;s levers):</source>
        <translation>哪一招省得最多（按文章的优化手段）：</translation>
    </message>
    <message>
        <source>Every lever is already pulled.</source>
        <translation>所有手段都已用上。</translation>
    </message>
    <message>
        <source>saves %1</source>
        <translation>省 %1</translation>
    </message>
    <message>
        <source>(then fits)</source>
        <translation>（之后放得下）</translation>
    </message>
    <message>
        <source>CPU %1</source>
        <translation>CPU %1</translation>
    </message>
    <message>
        <source>The peak is the run&apos;s start-up, before ZeRO-3 partitions the model:</source>
        <translation>峰值出现在运行启动时，ZeRO-3 切分模型之前：</translation>
    </message>
    <message>
        <source>Built under zero.Init (Advanced), it never is whole.</source>
        <translation>在 zero.Init 下构建（高级），模型从不整体出现。</translation>
    </message>
    <message>
        <source>DeepSpeed puts it whole on each GPU; no lever lowers that.</source>
        <translation>DeepSpeed 把整个模型放到每张 GPU 上；任何手段都降不下来。</translation>
    </message>
    <message>
        <source>a 4-bit model reaches DeepSpeed whole; no lever lowers that.</source>
        <translation>4 位模型整体到达 DeepSpeed；任何手段都降不下来。</translation>
    </message>
</context>
<context>
    <name>vl::HubClient</name>
    <message>
        <source>offline, and no copy of %1 was fetched before; go online once, or import a local config.json</source>
        <translation>处于离线状态，且之前没有获取过 %1 的副本；请先联网获取一次，或导入本地的 config.json</translation>
    </message>
    <message>
        <source>%1; using the copy fetched on %2</source>
        <translation>%1；改用 %2 获取的副本</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>the answer for %1 is larger than %2 MiB; that is no config.json</source>
        <translation>%1 的响应超过 %2 MiB，不可能是 config.json</translation>
    </message>
    <message>
        <source>%1 refused access to %2 (HTTP %3): the model is gated or private, or does not exist. Request access at %4, then set HF_TOKEN or log in with huggingface-cli, and try again</source>
        <translation>%1 拒绝访问 %2（HTTP %3）：该模型需要申请访问、是私有的，或者不存在。请在 %4 申请访问，然后设置 HF_TOKEN 或用 huggingface-cli 登录，再试一次</translation>
    </message>
    <message>
        <source>%1 has no config.json for %2 (HTTP 404): check the id and the revision</source>
        <translation>%1 上没有 %2 的 config.json（HTTP 404）：请检查 id 和版本</translation>
    </message>
    <message>
        <source>%1 answered HTTP %2 for %3</source>
        <translation>%1 对 %3 返回 HTTP %2</translation>
    </message>
    <message>
        <source>could not reach %1 (%2)</source>
        <translation>无法连接 %1（%2）</translation>
    </message>
    <message>
        <source>%1; check the connection or the proxy, set HF_ENDPOINT for a mirror, or import a local config.json</source>
        <translation>%1；请检查网络或代理，用 HF_ENDPOINT 指定镜像，或导入本地的 config.json</translation>
    </message>
    <message>
        <source>the answer for %1 from %2 is not a config.json (no JSON object)</source>
        <translation>%2 对 %1 的响应不是 config.json（不是 JSON 对象）</translation>
    </message>
    <message>
        <source>the answer for %1 from %2 was cut short (%3 of %4 bytes); try again, or import a local config.json</source>
        <translation>%2 返回的 %1 的应答被截断（收到 %3 字节，应为 %4 字节）；请重试，或导入本地的 config.json</translation>
    </message>
</context>
<context>
    <name>vl::LedgerModel</name>
    <message>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <source>AMP as printed (no master copy)</source>
        <translation>文章中的 AMP（未计主副本）</translation>
    </message>
</context>
<context>
    <name>vl::MainWindow</name>
    <message>
        <source>Not among the GPU presets here, left out: %1</source>
        <translation>此处的 GPU 预设中没有，已略去：%1</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>%1[*] — VRAM Ledger</source>
        <translation>%1[*] — 显存账本</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Import config.json…</source>
        <translation>导入 config.json(&amp;I)…</translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <source>&amp;Export view…</source>
        <translation>导出视图(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Copy view as &amp;image</source>
        <translation>复制视图为图片(&amp;I)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Copy breakdown as &amp;Markdown</source>
        <translation>复制明细为 &amp;Markdown</translation>
    </message>
    <message>
        <source>Copy breakdown as &amp;CSV</source>
        <translation>复制明细为 &amp;CSV</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Reset zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>Show &amp;advanced controls</source>
        <translation>显示高级选项(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Assumptions and sources</source>
        <translation>假设与出处(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;About VRAM Ledger</source>
        <translation>关于显存账本(&amp;A)</translation>
    </message>
    <message>
        <source>About VRAM Ledger</source>
        <translation>关于显存账本</translation>
    </message>
    <message>
        <source>&lt;h3&gt;VRAM Ledger %1&lt;/h3&gt;&lt;p&gt;How much GPU memory a training run takes, where it goes, and what to change when it does not fit.&lt;/p&gt;&lt;p&gt;Parameters, gradients, optimizer states and activations, each item with its formula.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;显存账本 %1&lt;/h3&gt;&lt;p&gt;一次训练要占多少显存、花在哪里、放不下时该改什么。&lt;/p&gt;&lt;p&gt;参数、梯度、优化器状态和中间激活，每一项都附上公式。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>柱状图</translation>
    </message>
    <message>
        <source>Structure</source>
        <translation>结构图</translation>
    </message>
    <message>
        <source>Step timeline</source>
        <translation>训练步时间线</translation>
    </message>
    <message>
        <source>Stacked bars of the four components against your GPUs&apos; capacities.</source>
        <translation>四大组成部分的堆叠柱状图，对照你的 GPU 容量。</translation>
    </message>
    <message>
        <source>One GPU&apos;s memory as blocks proportional to their bytes, and the flow of a training step.</source>
        <translation>单张 GPU 的显存：方块面积与字节数成正比，并标出一次训练步的流程。</translation>
    </message>
    <message>
        <source>Memory in use through one step: the peak, not the sum, decides whether it fits.</source>
        <translation>一次训练步中的显存占用：决定放不放得下的是峰值，而不是总和。</translation>
    </message>
    <message>
        <source>VRAM Ledger</source>
        <translation>显存账本</translation>
    </message>
    <message>
        <source>Imported %1 as your preset %2</source>
        <translation>已将 %1 导入为你的预设 %2</translation>
    </message>
    <message>
        <source>Open scenario or config.json</source>
        <translation>打开方案或 config.json</translation>
    </message>
    <message>
        <source>Scenarios and model configs (*.vramledger.yaml *.yaml *.yml *.json);;All files (*)</source>
        <translation>方案与模型配置 (*.vramledger.yaml *.yaml *.yml *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存方案</translation>
    </message>
    <message>
        <source>VRAM Ledger scenarios (*.vramledger.yaml)</source>
        <translation>显存账本方案 (*.vramledger.yaml)</translation>
    </message>
    <message>
        <source>Import a Hugging Face config.json</source>
        <translation>导入 Hugging Face 的 config.json</translation>
    </message>
    <message>
        <source>Model configs (*.json)</source>
        <translation>模型配置 (*.json)</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>导出视图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Copied the view as an image</source>
        <translation>已把视图复制为图片</translation>
    </message>
    <message>
        <source>Copied the breakdown as CSV</source>
        <translation>已把明细复制为 CSV</translation>
    </message>
    <message>
        <source>Copied the breakdown as Markdown</source>
        <translation>已把明细复制为 Markdown</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Memory against batch, sequence, GPU count or hidden size, and where it stops fitting.</source>
        <translation>显存随批大小、序列长度、GPU 数或隐藏层大小的变化，以及从哪里开始放不下。</translation>
    </message>
    <message numerus="yes">
        <source>%n preset file(s) skipped: %1</source>
        <translation>
            <numerusform>跳过了 %n 个预设文件：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>From Hugging Face</source>
        <translation>从 Hugging Face 获取</translation>
    </message>
    <message>
        <source>From &amp;Hugging Face…</source>
        <translation>从 &amp;Hugging Face 获取…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+I</source>
        <translation>Ctrl+Shift+I</translation>
    </message>
    <message>
        <source>Model id on the Hub, e.g. meta-llama/Llama-3.1-8B or Qwen/Qwen2.5-7B@main:</source>
        <translation>Hub 上的模型 id，例如 meta-llama/Llama-3.1-8B 或 Qwen/Qwen2.5-7B@main：</translation>
    </message>
    <message>
        <source>Fetching %1 from the Hugging Face Hub…</source>
        <translation>正在从 Hugging Face Hub 获取 %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>the Hub publishes %1 parameters for %2; its config counts %3</source>
        <translation>Hub 公布 %2 有 %1 个参数；按它的 config 计算为 %3 个</translation>
    </message>
    <message>
        <source>%1 has changes that are not saved. Save them?</source>
        <translation>%1 有尚未保存的修改。要保存吗？</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo %1</source>
        <translation>撤销“%1”(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Redo %1</source>
        <translation>重做“%1”(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Chart</source>
        <translation>柱状图(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Structure</source>
        <translation>结构图(&amp;S)</translation>
    </message>
    <message>
        <source>Step &amp;timeline</source>
        <translation>训练步时间线(&amp;T)</translation>
    </message>
    <message>
        <source>S&amp;weep</source>
        <translation>扫描(&amp;W)</translation>
    </message>
</context>
<context>
    <name>vl::MemoryChart</name>
    <message>
        <source>Memory per GPU (%1)</source>
        <translation>每张 GPU 的显存（%1）</translation>
    </message>
    <message>
        <source>Total: %1</source>
        <translation>合计：%1</translation>
    </message>
    <message>
        <source>peak %1 · sum %2</source>
        <translation>峰值 %1 · 总和 %2</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>峰值 %1</translation>
    </message>
</context>
<context>
    <name>vl::StepTimelineView</name>
    <message>
        <source>In use</source>
        <translation>占用</translation>
    </message>
    <message>
        <source>forward →</source>
        <translation>前向 →</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>← backward</source>
        <translation>← 反向</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>sum of all parts %1</source>
        <translation>各部分之和 %1</translation>
    </message>
    <message>
        <source>activations of the forward pass</source>
        <translation>前向传播的激活</translation>
    </message>
    <message>
        <source>gradients appearing while activations are still held</source>
        <translation>梯度已产生而激活尚未释放</translation>
    </message>
    <message>
        <source>all gradients with the optimizer states</source>
        <translation>全部梯度加上优化器状态</translation>
    </message>
    <message>
        <source>the model states alone</source>
        <translation>仅模型状态</translation>
    </message>
    <message>
        <source>peak %1: %2</source>
        <translation>峰值 %1：%2</translation>
    </message>
    <message>
        <source>In use on this GPU (%1)</source>
        <translation>这张 GPU 上的占用（%1）</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 暂停</translation>
    </message>
    <message>
        <source>▶ Play the step</source>
        <translation>▶ 播放训练步</translation>
    </message>
    <message>
        <source>Walks a cursor through the step; the Structure tab shows what is alive at that moment. Space plays or pauses, the arrow keys step, here and there.</source>
        <translation>让光标走过整个训练步；结构图标签页同时显示此刻存活的部分。空格键播放或暂停，方向键单步，两处都可用。</translation>
    </message>
    <message>
        <source>what forward kept on the GPU, plus the logits</source>
        <translation>前向留在 GPU 上的一切，加上 logits</translation>
    </message>
    <message>
        <source>gradients, optimizer states, step intermediates</source>
        <translation>梯度、优化器状态、更新中间张量</translation>
    </message>
    <message>
        <source>start-up</source>
        <translation>启动时</translation>
    </message>
    <message>
        <source>the model whole, before it is sharded</source>
        <translation>模型整体，切分之前</translation>
    </message>
    <message>
        <source>FSDP1 keeps each layer&apos;s checkpoint and its gradient until backward ends</source>
        <translation>FSDP1 把每层的检查点及其梯度一直留到反向结束</translation>
    </message>
</context>
<context>
    <name>vl::StructureDiagram</name>
    <message>
        <source>dashed: %1 without recomputation (not to scale)</source>
        <translation>虚线：不重计算时为 %1（未按比例）</translation>
    </message>
    <message>
        <source>dashed: %1 without recomputation</source>
        <translation>虚线：不重计算时为 %1</translation>
    </message>
    <message>
        <source>%1: this GPU holds 1 of %2 slices</source>
        <translation>%1：这张 GPU 只持有 %2 份中的 1 份</translation>
    </message>
    <message>
        <source>16-bit working copy; the FP32 master is in the optimizer states</source>
        <translation>16 位工作副本；FP32 主副本在优化器状态中</translation>
    </message>
    <message>
        <source>forward: reads the parameters, leaves activations</source>
        <translation>前向：读取参数，留下激活</translation>
    </message>
    <message>
        <source>backward: consumes activations, produces gradients</source>
        <translation>反向：消耗激活，产生梯度</translation>
    </message>
    <message>
        <source>optimizer step: reads gradients, master copy and moments</source>
        <translation>优化器更新：读取梯度、主副本和动量</translation>
    </message>
    <message>
        <source>the update writes new parameters, and the next step begins</source>
        <translation>更新写回新参数，开始下一步</translation>
    </message>
    <message>
        <source>At %1</source>
        <translation>此刻：%1</translation>
    </message>
    <message>
        <source>offloaded by ZeRO-Offload, not on this GPU</source>
        <translation>由 ZeRO-Offload 卸载，不占这张 GPU</translation>
    </message>
    <message>
        <source>offloaded by ZeRO-Offload, not on this GPU (not to scale)</source>
        <translation>由 ZeRO-Offload 卸载，不占这张 GPU（未按比例）</translation>
    </message>
    <message>
        <source>CPU memory</source>
        <translation>CPU 内存</translation>
    </message>
    <message>
        <source>offloaded: %1 in CPU memory</source>
        <translation>已卸载：%1 在 CPU 内存</translation>
    </message>
    <message>
        <source>paged: %1 in managed memory</source>
        <translation>已分页：%1 在统一内存中</translation>
    </message>
    <message>
        <source>One GPU&apos;s memory: %1 in all, %2 at the step&apos;s peak (block areas are proportional to bytes)</source>
        <translation>单张 GPU 的显存：全部合计 %1，步骤峰值 %2（方块面积与字节数成正比）</translation>
    </message>
    <message>
        <source>One GPU&apos;s memory: %1 in all, %2 at its peak, the run&apos;s start-up (block areas are proportional to bytes)</source>
        <translation>单张 GPU 的显存：全部合计 %1，峰值 %2 出现在运行启动时（方块面积与字节数成正比）</translation>
    </message>
</context>
<context>
    <name>vl::SweepView</name>
    <message>
        <source>Memory against:</source>
        <translation>显存随之变化：</translation>
    </message>
    <message>
        <source>batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>data-parallel GPUs</source>
        <translation>数据并行 GPU 数</translation>
    </message>
    <message>
        <source>hidden size</source>
        <translation>隐藏层大小</translation>
    </message>
    <message>
        <source>Logarithmic axis</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>Everything else stays as it is. Without FlashAttention the sequence curve bends upward: the attention scores grow with its square.</source>
        <translation>其他设置保持不变。不开 FlashAttention 时，序列长度曲线会向上弯：注意力分数随其平方增长。</translation>
    </message>
    <message>
        <source>Fits %1 up to %2 = %3</source>
        <translation>%1 放得下，直到%2 = %3</translation>
    </message>
    <message>
        <source>Fits %1 from %2 = %3</source>
        <translation>%1 放得下，从%2 = %3 起</translation>
    </message>
    <message>
        <source>Choose a GPU to mark where it stops fitting.</source>
        <translation>选择一块 GPU，标出从哪里开始放不下。</translation>
    </message>
    <message>
        <source>No crossing with %1 in this range.</source>
        <translation>在此范围内与 %1 没有交点。</translation>
    </message>
    <message>
        <source>Memory per GPU (%1)</source>
        <translation>每张 GPU 的显存（%1）</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
</context>
<context>
    <name>vl::VerdictBar</name>
    <message>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>sum of all parts</source>
        <translation>各部分之和</translation>
    </message>
    <message>
        <source> · the step&apos;s peak is %1</source>
        <translation> · 训练步峰值为 %1</translation>
    </message>
    <message>
        <source>Choose a GPU to see whether it fits.</source>
        <translation>选择一块 GPU，看看放不放得下。</translation>
    </message>
    <message>
        <source>largest batch %1</source>
        <translation>最大批大小 %1</translation>
    </message>
    <message>
        <source>not even batch 1</source>
        <translation>批大小为 1 也放不下</translation>
    </message>
    <message>
        <source>longest sequence %1</source>
        <translation>最长序列 %1</translation>
    </message>
    <message>
        <source>fewest GPUs with %1: %2</source>
        <translation>%1 下最少需要 %2 张 GPU</translation>
    </message>
    <message>
        <source>no GPU count fits with %1</source>
        <translation>%1 下多少张 GPU 都放不下</translation>
    </message>
    <message>
        <source>%1 per GPU</source>
        <translation>每张 GPU %1</translation>
    </message>
    <message>
        <source>: fits, %1 to spare</source>
        <translation>：放得下，还剩 %1</translation>
    </message>
    <message>
        <source>: does not fit, %1 short</source>
        <translation>：放不下，还差 %1</translation>
    </message>
    <message>
        <source> · %1 in CPU memory per GPU, %2 per node of %3</source>
        <translation> · 每张 GPU 占 CPU 内存 %1，每个 %3 卡节点共 %2</translation>
    </message>
    <message>
        <source>no FP8 tensor cores: FP8 will not run on it</source>
        <translation>没有 FP8 张量核心：无法在它上面运行 FP8</translation>
    </message>
    <message>
        <source> · %1 in CPU or managed memory per GPU, %2 per node of %3</source>
        <translation> · 每张 GPU 占 CPU 或统一内存 %1，每个 %3 卡节点共 %2</translation>
    </message>
    <message>
        <source> · all parts at once %1</source>
        <translation> · 所有部分同时计入为 %1</translation>
    </message>
    <message>
        <source> · the peak, at start-up, is %1</source>
        <translation> · 峰值出现在启动时，为 %1</translation>
    </message>
</context>
<context>
    <name>vl::formula</name>
    <message>
        <source>largest parameter</source>
        <translation>最大的参数</translation>
    </message>
    <message>
        <source>(DeepSpeed&apos;s GPU buffer for gradients bound for the CPU)</source>
        <translation>（DeepSpeed 为送往 CPU 的梯度准备的 GPU 缓冲区）</translation>
    </message>
    <message>
        <source>Q/K/V/out</source>
        <translation>Q/K/V/输出</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>秩</translation>
    </message>
    <message>
        <source>bits</source>
        <translation>位</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>CUDA context and kernels</source>
        <translation>CUDA 上下文与内核</translation>
    </message>
    <message>
        <source>NCCL communication buffers</source>
        <translation>NCCL 通信缓冲区</translation>
    </message>
    <message>
        <source>% of</source>
        <translation>% ×</translation>
    </message>
    <message>
        <source>RMSNorm input, saved by x·x and × 1/rms</source>
        <translation>RMSNorm 输入，由 x·x 和 × 1/rms 保存</translation>
    </message>
    <message>
        <source>norm output, saved by the qkv projection</source>
        <translation>归一化输出，由 qkv 投影保存</translation>
    </message>
    <message>
        <source>fused qkv output, kept whole by the value view</source>
        <translation>融合的 qkv 输出，被 value 视图整体保留</translation>
    </message>
    <message>
        <source>norm output, saved by fc_1 and fc_2</source>
        <translation>归一化输出，由 fc_1 和 fc_2 保存</translation>
    </message>
    <message>
        <source>fc_1 output, saved by SiLU</source>
        <translation>fc_1 输出，由 SiLU 保存</translation>
    </message>
    <message>
        <source>SiLU output, saved by × fc_2</source>
        <translation>SiLU 输出，由 × fc_2 保存</translation>
    </message>
    <message>
        <source>fc_2 output, saved by × SiLU</source>
        <translation>fc_2 输出，由 × SiLU 保存</translation>
    </message>
    <message>
        <source>SiLU × fc_2, saved by the MLP&apos;s proj</source>
        <translation>SiLU × fc_2，由 MLP 的 proj 保存</translation>
    </message>
    <message>
        <source>targets (int64), saved by the loss</source>
        <translation>目标（int64），由损失保存</translation>
    </message>
    <message>
        <source>c_fc output, saved by pow</source>
        <translation>c_fc 输出，由 pow 保存</translation>
    </message>
    <message>
        <source>0.5·x, saved by the product</source>
        <translation>0.5·x，由乘法保存</translation>
    </message>
    <message>
        <source>1 + tanh, saved by the product</source>
        <translation>1 + tanh，由乘法保存</translation>
    </message>
    <message>
        <source>16-bit cast of the dropped probabilities, saved by × V</source>
        <translation>dropout 后概率的 16 位副本，由 × V 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the input, saved by LoRA A</source>
        <translation>输入的 16 位副本，由 LoRA A 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the input, saved by the projection</source>
        <translation>输入的 16 位副本，由投影层保存</translation>
    </message>
    <message>
        <source>16-bit cast of the input, saved by the LM head</source>
        <translation>输入的 16 位副本，由 LM 头保存</translation>
    </message>
    <message>
        <source>16-bit cast of the layer input, saved by the query, key or value linear</source>
        <translation>层输入的 16 位副本，由 query、key 或 value 线性层保存</translation>
    </message>
    <message>
        <source>16-bit cast of the GELU output, saved by c_proj</source>
        <translation>GELU 输出的 16 位副本，由 c_proj 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the first token, saved by the pooler</source>
        <translation>首个 token 的 16 位副本，由 pooler 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the norm output, saved by the next linear</source>
        <translation>归一化输出的 16 位副本，由后续线性层保存</translation>
    </message>
    <message>
        <source>16-bit cast of the probabilities, saved by × V</source>
        <translation>概率的 16 位副本，由 × V 保存</translation>
    </message>
    <message>
        <source>FP32 cast of c_fc&apos;s output, saved by pow</source>
        <translation>c_fc 输出的 FP32 副本，由 pow 保存</translation>
    </message>
    <message>
        <source>GELU output, saved by the output dense</source>
        <translation>GELU 输出，由输出层保存</translation>
    </message>
    <message>
        <source>GELU output, saved by c_proj</source>
        <translation>GELU 输出，由 c_proj 保存</translation>
    </message>
    <message>
        <source>LayerNorm 1/std (FP32)</source>
        <translation>LayerNorm 1/std（FP32）</translation>
    </message>
    <message>
        <source>LayerNorm mean (FP32)</source>
        <translation>LayerNorm 均值（FP32）</translation>
    </message>
    <message>
        <source>LayerNorm input</source>
        <translation>LayerNorm 输入</translation>
    </message>
    <message>
        <source>LoRA A output (rank r), saved by LoRA B</source>
        <translation>LoRA A 输出（秩 r），由 LoRA B 保存</translation>
    </message>
    <message>
        <source>LoRA dropout mask (1 B)</source>
        <translation>LoRA dropout 掩码（1 字节）</translation>
    </message>
    <message>
        <source>LoRA dropout output, saved by LoRA A</source>
        <translation>LoRA dropout 输出，由 LoRA A 保存</translation>
    </message>
    <message>
        <source>RMSNorm 1/rms (FP32)</source>
        <translation>RMSNorm 1/rms（FP32）</translation>
    </message>
    <message>
        <source>RMSNorm input in FP32</source>
        <translation>RMSNorm 的 FP32 输入</translation>
    </message>
    <message>
        <source>RMSNorm normalized input, saved by × weight</source>
        <translation>RMSNorm 归一化后的输入，由 × weight 保存</translation>
    </message>
    <message>
        <source>SiLU output, saved by × up</source>
        <translation>SiLU 输出，由 × up 保存</translation>
    </message>
    <message>
        <source>attention context, saved by the output dense</source>
        <translation>注意力上下文，由输出层保存</translation>
    </message>
    <message>
        <source>attention output, saved by the kernel and the output projection</source>
        <translation>注意力输出，由内核和输出投影保存</translation>
    </message>
    <message>
        <source>attention probabilities (softmax in FP32)</source>
        <translation>注意力概率（FP32 softmax）</translation>
    </message>
    <message>
        <source>attention probabilities (softmax)</source>
        <translation>注意力概率（softmax）</translation>
    </message>
    <message>
        <source>attention probabilities cast back to 16 bits</source>
        <translation>注意力概率转回 16 位</translation>
    </message>
    <message>
        <source>c_attn output; query, key and value are views of it</source>
        <translation>c_attn 输出（query、key、value 都是它的视图）</translation>
    </message>
    <message>
        <source>dropout mask (1 B)</source>
        <translation>dropout 掩码（1 字节）</translation>
    </message>
    <message>
        <source>dropout output of the probabilities, saved by × V</source>
        <translation>概率的 dropout 输出，由 × V 保存</translation>
    </message>
    <message>
        <source>dropout output of the 16-bit probabilities, saved by × V</source>
        <translation>16 位概率的 dropout 输出，由 × V 保存</translation>
    </message>
    <message>
        <source>dropout output, saved by the classifier</source>
        <translation>dropout 输出，由分类器保存</translation>
    </message>
    <message>
        <source>gate_proj output, saved by SiLU</source>
        <translation>gate_proj 输出，由 SiLU 保存</translation>
    </message>
    <message>
        <source>intermediate output, saved by GELU</source>
        <translation>中间层输出，由 GELU 保存</translation>
    </message>
    <message>
        <source>key after rotary, repeated to every head</source>
        <translation>旋转编码后的 key，复制到每个头</translation>
    </message>
    <message>
        <source>key after rotary (KV heads)</source>
        <translation>旋转编码后的 key（KV 头）</translation>
    </message>
    <message>
        <source>key, copied for the batched matmul</source>
        <translation>key，为批量矩阵乘复制</translation>
    </message>
    <message>
        <source>labels (int64), saved by the loss</source>
        <translation>标签（int64），由损失保存</translation>
    </message>
    <message>
        <source>last layer&apos;s output, kept by the pooler&apos;s first-token slice</source>
        <translation>最后一层的输出，被 pooler 的首 token 切片整体保留</translation>
    </message>
    <message>
        <source>layer input, kept by the checkpoint</source>
        <translation>层输入，由检查点保留</translation>
    </message>
    <message>
        <source>layer input, saved by the query, key and value linears</source>
        <translation>层输入，由 query、key、value 线性层保存</translation>
    </message>
    <message>
        <source>LM-head input</source>
        <translation>LM 头的输入</translation>
    </message>
    <message>
        <source>log-softmax over the labels, saved by the loss</source>
        <translation>标签上的 log-softmax，由损失保存</translation>
    </message>
    <message>
        <source>log-softmax over the vocabulary (FP32), saved by the loss</source>
        <translation>词表上的 log-softmax（FP32），由损失保存</translation>
    </message>
    <message>
        <source>log-sum-exp (FP32)</source>
        <translation>log-sum-exp（FP32）</translation>
    </message>
    <message>
        <source>merged heads, saved by c_proj</source>
        <translation>合并后的多头输出，由 c_proj 保存</translation>
    </message>
    <message>
        <source>norm output, saved by the next linear</source>
        <translation>归一化输出，由后续线性层保存</translation>
    </message>
    <message>
        <source>pooler tanh output</source>
        <translation>pooler 的 tanh 输出</translation>
    </message>
    <message>
        <source>position ids (int64), saved by the position embedding</source>
        <translation>位置 id（int64），由位置嵌入保存</translation>
    </message>
    <message>
        <source>projection input</source>
        <translation>投影层输入</translation>
    </message>
    <message>
        <source>query after rotary</source>
        <translation>旋转编码后的 query</translation>
    </message>
    <message>
        <source>query, copied for the batched matmul</source>
        <translation>query，为批量矩阵乘复制</translation>
    </message>
    <message>
        <source>shifted labels (int64), saved by the loss</source>
        <translation>移位后的标签（int64），由损失保存</translation>
    </message>
    <message>
        <source>tanh output</source>
        <translation>tanh 输出</translation>
    </message>
    <message>
        <source>token ids, saved by the embedding (int64)</source>
        <translation>token id，由嵌入层保存（int64）</translation>
    </message>
    <message>
        <source>token-type ids (int64), saved by their embedding</source>
        <translation>token 类型 id（int64），由其嵌入保存</translation>
    </message>
    <message>
        <source>up_proj output, saved by × SiLU</source>
        <translation>up_proj 输出，由 × SiLU 保存</translation>
    </message>
    <message>
        <source>value, copied for the batched matmul</source>
        <translation>value，为批量矩阵乘复制</translation>
    </message>
    <message>
        <source>value, repeated to every head</source>
        <translation>value，复制到每个头</translation>
    </message>
    <message>
        <source>value (KV heads)</source>
        <translation>value（KV 头）</translation>
    </message>
    <message>
        <source>per layer, as</source>
        <translation>每层，按</translation>
    </message>
    <message>
        <source>saves it:</source>
        <translation>的实际保存：</translation>
    </message>
    <message>
        <source>frozen params</source>
        <translation>个冻结参数</translation>
    </message>
    <message>
        <source>16-bit casts of the FP32 weights, kept for backward:</source>
        <translation>FP32 权重的 16 位副本，保留到反向：</translation>
    </message>
    <message>
        <source>output head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <source>adapter</source>
        <translation>适配器</translation>
    </message>
    <message>
        <source>one chunk&apos;s FP32 copy (chunked loss,</source>
        <translation>一块的 FP32 副本（分块损失，</translation>
    </message>
    <message>
        <source>chunks)</source>
        <translation>块）</translation>
    </message>
    <message>
        <source>the article&apos;s b·s·h·L·2 estimate</source>
        <translation>即文章中 b·s·h·L·2 的估算</translation>
    </message>
    <message>
        <source>trainable params</source>
        <translation>个可训练参数</translation>
    </message>
    <message>
        <source>adapter params</source>
        <translation>个适配器参数</translation>
    </message>
    <message>
        <source>factor entries</source>
        <translation>个因子项</translation>
    </message>
    <message>
        <source>params</source>
        <translation>个参数</translation>
    </message>
    <message>
        <source>FP32 master copy</source>
        <translation>FP32 主副本</translation>
    </message>
    <message>
        <source>8-bit Adam m and v</source>
        <translation>8 位 Adam 的 m 和 v</translation>
    </message>
    <message>
        <source>Adam m and v</source>
        <translation>Adam 的 m 和 v</translation>
    </message>
    <message>
        <source>plain SGD keeps no state</source>
        <translation>普通 SGD 不保存状态</translation>
    </message>
    <message>
        <source>Lion momentum</source>
        <translation>Lion 动量</translation>
    </message>
    <message>
        <source>momentum</source>
        <translation>动量</translation>
    </message>
    <message>
        <source>Adafactor row/column factors</source>
        <translation>Adafactor 行/列因子</translation>
    </message>
    <message>
        <source>GPUs (ZeRO)</source>
        <translation>张 GPU（ZeRO）</translation>
    </message>
    <message>
        <source>offloaded to CPU memory</source>
        <translation>已卸载到 CPU 内存</translation>
    </message>
    <message>
        <source>per layer:</source>
        <translation>每层：</translation>
    </message>
    <message>
        <source>inputs &amp; norms</source>
        <translation>输入与归一化</translation>
    </message>
    <message>
        <source>attention scores</source>
        <translation>注意力分数</translation>
    </message>
    <message>
        <source>micro-batches in flight</source>
        <translation>个在途微批</translation>
    </message>
    <message>
        <source>each layer keeps only its input:</source>
        <translation>每层只保留输入：</translation>
    </message>
    <message>
        <source>one layer&apos;s full activations while it is recomputed</source>
        <translation>重算时一层的完整激活</translation>
    </message>
    <message>
        <source>FP32 copy for the loss</source>
        <translation>供损失计算的 FP32 副本</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>个 token</translation>
    </message>
    <message>
        <source>layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>隐藏维度</translation>
    </message>
    <message>
        <source>vocab</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>layers, computed and prefetched,</source>
        <translation>层（正在计算的与预取的）</translation>
    </message>
    <message>
        <source>GPUs (FSDP)</source>
        <translation>张 GPU（FSDP）</translation>
    </message>
    <message>
        <source>one layer&apos;s unsharded gradients</source>
        <translation>一层未分片的梯度</translation>
    </message>
    <message>
        <source>reduce-scatter input</source>
        <translation>reduce-scatter 输入缓冲</translation>
    </message>
    <message>
        <source>the head&apos;s, held until the root reduces,</source>
        <translation>输出头的梯度（保留到根单元归约）</translation>
    </message>
    <message>
        <source>wq output (1st mm), saved by the op policy</source>
        <translation>wq 输出（第 1 个 mm），由算子策略保存</translation>
    </message>
    <message>
        <source>wv output (3rd mm), saved by the op policy</source>
        <translation>wv 输出（第 3 个 mm），由算子策略保存</translation>
    </message>
    <message>
        <source>w1 output (5th mm), saved by the op policy</source>
        <translation>w1 输出（第 5 个 mm），由算子策略保存</translation>
    </message>
    <message>
        <source>w2 output (7th mm), saved by the op policy</source>
        <translation>w2 输出（第 7 个 mm），由算子策略保存</translation>
    </message>
    <message>
        <source>attention output, saved by the op policy</source>
        <translation>注意力输出，由算子策略保存</translation>
    </message>
    <message>
        <source>log-sum-exp (FP32), saved by the op policy</source>
        <translation>log-sum-exp（FP32），由算子策略保存</translation>
    </message>
    <message>
        <source>the loss&apos;s backward: FP32 gradients of the log-softmax and of the logits, more than the forward&apos;s logits and FP32 copy,</source>
        <translation>损失的反向：log-softmax 与 logits 的 FP32 梯度同时存在，多于前向的 logits 与其 FP32 副本</translation>
    </message>
    <message>
        <source>(1F1B, pipeline full)</source>
        <translation>（1F1B，流水线满载）</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>个元素</translation>
    </message>
    <message>
        <source>(DeepSpeed&apos;s contiguous gradient bucket)</source>
        <translation>（DeepSpeed 的连续梯度桶）</translation>
    </message>
    <message>
        <source>layers, not resharded after forward,</source>
        <translation>层（前向后不重新分片）</translation>
    </message>
    <message>
        <source>GPUs (HSDP group)</source>
        <translation>张 GPU（HSDP 组）</translation>
    </message>
    <message>
        <source>(the sequence ÷</source>
        <translation>（序列 ÷</translation>
    </message>
    <message>
        <source>context-parallel GPUs:</source>
        <translation>张上下文并行 GPU：</translation>
    </message>
    <message>
        <source>tokens each)</source>
        <translation>个 token/每张）</translation>
    </message>
    <message>
        <source>experts&apos; ÷</source>
        <translation>专家部分 ÷</translation>
    </message>
    <message>
        <source>(DeepSpeed&apos;s CPU buffer for gradients from the GPU)</source>
        <translation>（DeepSpeed 在 CPU 上接收 GPU 梯度的缓冲区）</translation>
    </message>
    <message>
        <source>(FP32 gradients for the CPU optimizer)</source>
        <translation>（供 CPU 优化器使用的 FP32 梯度）</translation>
    </message>
    <message>
        <source>(the updated partition, for the GPU)</source>
        <translation>（更新后的分片，待拷回 GPU）</translation>
    </message>
    <message>
        <source>(gradients accumulated between micro-batches)</source>
        <translation>（微批次之间累积的梯度）</translation>
    </message>
    <message>
        <source>none on the GPU (ZeRO-Offload reduces into the FP32 gradients in CPU memory)</source>
        <translation>GPU 上没有（ZeRO-Offload 直接归约到 CPU 内存里的 FP32 梯度）</translation>
    </message>
    <message>
        <source>in CPU memory</source>
        <translation>位于 CPU 内存</translation>
    </message>
    <message>
        <source>kept for reuse</source>
        <translation>为复用而保留</translation>
    </message>
    <message>
        <source>prefetched</source>
        <translation>预取</translation>
    </message>
    <message>
        <source>GPUs (Megatron)</source>
        <translation>张 GPU（Megatron）</translation>
    </message>
    <message>
        <source>largest 4-bit module</source>
        <translation>最大的 4 位模块</translation>
    </message>
    <message>
        <source>dequantized in FP16</source>
        <translation>以 FP16 反量化</translation>
    </message>
    <message>
        <source>cast to the compute dtype</source>
        <translation>转换为计算数据类型</translation>
    </message>
    <message>
        <source>dequantized</source>
        <translation>反量化</translation>
    </message>
    <message>
        <source>(FP32, as Fabric returns them)</source>
        <translation>（FP32，Fabric 返回的精度）</translation>
    </message>
    <message>
        <source>LoRA B output, copied by zero_pad and saved by index_copy</source>
        <translation>LoRA B 输出，由 zero_pad 复制、由 index_copy 保存</translation>
    </message>
    <message>
        <source>adapted columns (int64), saved by index_copy</source>
        <translation>被适配的列号（int64），由 index_copy 保存</translation>
    </message>
    <message>
        <source>attention output, saved by the kernel</source>
        <translation>注意力输出，由内核保存</translation>
    </message>
    <message>
        <source>attention output reshaped (a copy), saved by the output projection</source>
        <translation>重排后的注意力输出（一份拷贝），由输出投影保存</translation>
    </message>
    <message>
        <source>norm output, saved by the qkv projection and fc</source>
        <translation>归一化输出，由 qkv 投影和 fc 保存</translation>
    </message>
    <message>
        <source>norm output, saved by fc</source>
        <translation>归一化输出，由 fc 保存</translation>
    </message>
    <message>
        <source>fc output, saved by GELU</source>
        <translation>fc 输出，由 GELU 保存</translation>
    </message>
    <message>
        <source>GELU output, saved by the MLP&apos;s proj</source>
        <translation>GELU 输出，由 MLP 的 proj 保存</translation>
    </message>
    <message>
        <source>(vocab-parallel)</source>
        <translation>（按词表并行切分）</translation>
    </message>
    <message>
        <source>linear-layer params</source>
        <translation>个线性层参数</translation>
    </message>
    <message>
        <source>FP8 copy</source>
        <translation>FP8 副本</translation>
    </message>
    <message>
        <source>FP8 transpose</source>
        <translation>FP8 转置</translation>
    </message>
    <message>
        <source>per layer, the linears&apos; inputs in FP8:</source>
        <translation>每层（线性层输入为 FP8）：</translation>
    </message>
    <message>
        <source>chunk passes in flight</source>
        <translation>个模型块前向在途</translation>
    </message>
    <message>
        <source>chunks (interleaved 1F1B)</source>
        <translation>个模型块（交错 1F1B）</translation>
    </message>
    <message>
        <source>(unsharded, summed over the step&apos;s micro-batches without syncing)</source>
        <translation>（未分片，在该步各微批间不同步地累加）</translation>
    </message>
    <message>
        <source>(the final norm&apos;s input and its output, saved by the output layer)</source>
        <translation>（最终归一化层的输入及其输出，后者由输出层保存）</translation>
    </message>
    <message>
        <source>(sequence parallel)</source>
        <translation>（序列并行）</translation>
    </message>
    <message>
        <source>norm output, saved by LoRA A</source>
        <translation>归一化输出，由 LoRA A 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the norm output, saved by the qkv projection</source>
        <translation>归一化输出的 16 位副本，由 qkv 投影保存</translation>
    </message>
    <message>
        <source>16-bit cast of the norm output, saved by fc</source>
        <translation>归一化输出的 16 位副本，由 fc 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the norm output, saved by fc_1</source>
        <translation>归一化输出的 16 位副本，由 fc_1 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the norm output, saved by fc_2</source>
        <translation>归一化输出的 16 位副本，由 fc_2 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the norm output, saved by LoRA A</source>
        <translation>归一化输出的 16 位副本，由 LoRA A 保存</translation>
    </message>
    <message>
        <source>16-bit cast of the LoRA dropout output, saved by LoRA A</source>
        <translation>LoRA dropout 输出的 16 位副本，由 LoRA A 保存</translation>
    </message>
    <message>
        <source>log-softmax (FP32) of the full 128-token chunks, saved by the loss</source>
        <translation>完整的 128 token 分块的 log-softmax（FP32），由损失保存</translation>
    </message>
    <message>
        <source>log-softmax (FP32) of the last chunk, saved by the loss</source>
        <translation>最后一个分块的 log-softmax（FP32），由损失保存</translation>
    </message>
    <message>
        <source>16-bit casts of the full chunks, saved by the LM head</source>
        <translation>完整分块的 16 位副本，由 LM 头保存</translation>
    </message>
    <message>
        <source>16-bit cast of the last chunk, saved by the LM head</source>
        <translation>最后一个分块的 16 位副本，由 LM 头保存</translation>
    </message>
    <message>
        <source>targets (int64) of the full chunks, saved by the loss</source>
        <translation>完整分块的目标（int64），由损失保存</translation>
    </message>
    <message>
        <source>targets (int64) of the last chunk, saved by the loss</source>
        <translation>最后一个分块的目标（int64），由损失保存</translation>
    </message>
    <message>
        <source>chunks</source>
        <translation>个分块</translation>
    </message>
    <message>
        <source>double-quantized</source>
        <translation>双重量化</translation>
    </message>
    <message>
        <source>the inputs of the last</source>
        <translation>最后</translation>
    </message>
    <message>
        <source>layers, kept until their copy to CPU memory is done:</source>
        <translation>层的输入，拷贝到 CPU 内存完成前一直保留：</translation>
    </message>
    <message>
        <source>one layer&apos;s saved tensors, brought back for its backward</source>
        <translation>一层保存的张量，为其反向拷回</translation>
    </message>
    <message>
        <source>LoRA dropout masks of the full chunks (1 B)</source>
        <translation>完整分块的 LoRA dropout 掩码（1 B）</translation>
    </message>
    <message>
        <source>LoRA dropout mask of the last chunk (1 B)</source>
        <translation>最后一个分块的 LoRA dropout 掩码（1 B）</translation>
    </message>
    <message>
        <source>LoRA A inputs of the full chunks</source>
        <translation>完整分块的 LoRA A 输入</translation>
    </message>
    <message>
        <source>LoRA A input of the last chunk</source>
        <translation>最后一个分块的 LoRA A 输入</translation>
    </message>
    <message>
        <source>LoRA A outputs of the full chunks (rank r), saved by LoRA B</source>
        <translation>完整分块的 LoRA A 输出（秩 r），由 LoRA B 保存</translation>
    </message>
    <message>
        <source>LoRA A output of the last chunk (rank r), saved by LoRA B</source>
        <translation>最后一个分块的 LoRA A 输出（秩 r），由 LoRA B 保存</translation>
    </message>
    <message>
        <source>head adapter</source>
        <translation>输出头适配器</translation>
    </message>
    <message>
        <source>paged</source>
        <translation>已分页</translation>
    </message>
    <message>
        <source>params in tensors of 1e5 elements or more</source>
        <translation>个参数（位于元素数不少于 1e5 的张量中）</translation>
    </message>
    <message>
        <source>in CUDA managed memory: paged out to CPU memory when the GPU runs short</source>
        <translation>位于 CUDA 统一内存：显存不足时换出到 CPU 内存</translation>
    </message>
    <message>
        <source>params in tensors under 4096 elements</source>
        <translation>个参数（位于元素数少于 4096 的张量中）</translation>
    </message>
    <message>
        <source>FP32 states</source>
        <translation>FP32 状态</translation>
    </message>
    <message>
        <source>absmax per block</source>
        <translation>每块一个 absmax</translation>
    </message>
    <message>
        <source>foreach AdamW&apos;s √v of every parameter at once, during the step:</source>
        <translation>foreach AdamW 在更新时一次算出所有参数的 √v：</translation>
    </message>
    <message>
        <source>during the step</source>
        <translation>更新期间</translation>
    </message>
    <message>
        <source>Adafactor&apos;s FP32 update and its factored approximation</source>
        <translation>Adafactor 的 FP32 更新量及其分解近似</translation>
    </message>
    <message>
        <source>, with FP32 copies of the gradient and the parameter,</source>
        <translation>，连同梯度与参数的 FP32 副本，</translation>
    </message>
    <message>
        <source>of one tensor at a time, the largest</source>
        <translation>每次一个张量，取最大的</translation>
    </message>
    <message>
        <source>AdamW&apos;s √v of one tensor at a time (optimizer in backward)</source>
        <translation>AdamW 每次只算一个张量的 √v（反向中更新）</translation>
    </message>
    <message>
        <source>one parameter&apos;s gradient at a time (optimizer in backward), the largest</source>
        <translation>同一时刻只有一个参数的梯度（反向中更新），取最大的</translation>
    </message>
    <message>
        <source>the largest</source>
        <translation>取最大的</translation>
    </message>
    <message>
        <source>x·x, saved by mean (PyTorch before 2.2)</source>
        <translation>x·x，由 mean 保存（PyTorch 2.2 之前）</translation>
    </message>
    <message>
        <source>x² (FP32), saved by mean (PyTorch before 2.2)</source>
        <translation>x²（FP32），由 mean 保存（PyTorch 2.2 之前）</translation>
    </message>
    <message>
        <source>the last chunk less its final position, copied by reshape for the loss</source>
        <translation>去掉最后一个位置的末块，由 reshape 为损失复制</translation>
    </message>
    <message>
        <source>RMSNorm input, saved by Liger&apos;s kernel</source>
        <translation>RMSNorm 输入，由 Liger 内核保存</translation>
    </message>
    <message>
        <source>gate_proj output, saved by Liger&apos;s SiLU × up</source>
        <translation>gate_proj 输出，由 Liger 的 SiLU × up 保存</translation>
    </message>
    <message>
        <source>up_proj output, saved by Liger&apos;s SiLU × up</source>
        <translation>up_proj 输出，由 Liger 的 SiLU × up 保存</translation>
    </message>
    <message>
        <source>gradient of the LM-head input, computed in forward by Liger&apos;s loss</source>
        <translation>LM 头输入的梯度，由 Liger 的损失在前向中算出</translation>
    </message>
    <message>
        <source>gradient of the LM-head weight, computed in forward by Liger&apos;s loss</source>
        <translation>LM 头权重的梯度，由 Liger 的损失在前向中算出</translation>
    </message>
    <message>
        <source>(one chunk of the logits in Liger&apos;s fused loss, its gradient written in place)</source>
        <translation>（Liger 融合损失中的一块 logits，其梯度原地写入）</translation>
    </message>
    <message>
        <source>the head&apos;s 16-bit cast (autocast)</source>
        <translation>输出头的 16 位副本（autocast）</translation>
    </message>
    <message>
        <source>one layer&apos;s backward at its widest:</source>
        <translation>单层反向传播最宽处：</translation>
    </message>
    <message>
        <source>gradient of the layer&apos;s output (the residual stream)</source>
        <translation>该层输出的梯度（残差流）</translation>
    </message>
    <message>
        <source>gradients of SiLU&apos;s output and of up_proj&apos;s output</source>
        <translation>SiLU 输出与 up_proj 输出的梯度</translation>
    </message>
    <message>
        <source>gradient of down_proj&apos;s input</source>
        <translation>down_proj 输入的梯度</translation>
    </message>
    <message>
        <source>LoRA&apos;s gradient of down_proj&apos;s input, less its rank-r output</source>
        <translation>LoRA 给出的 down_proj 输入梯度，减去其秩 r 输出</translation>
    </message>
    <message>
        <source>gradient of GELU&apos;s input</source>
        <translation>GELU 输入的梯度</translation>
    </message>
    <message>
        <source>gradient of the second linear&apos;s input</source>
        <translation>第二个线性层输入的梯度</translation>
    </message>
    <message>
        <source>gradients of NewGELU&apos;s two factors, 0.5·x and 1 + tanh</source>
        <translation>NewGELU 两个因子 0.5·x 与 1 + tanh 的梯度</translation>
    </message>
    <message>
        <source>FP32 gradient of NewGELU&apos;s output</source>
        <translation>NewGELU 输出的 FP32 梯度</translation>
    </message>
    <message>
        <source>FP32 gradients of its two factors, 0.5·x and 1 + tanh</source>
        <translation>其两个因子 0.5·x 与 1 + tanh 的 FP32 梯度</translation>
    </message>
    <message>
        <source>16-bit copy of the stream&apos;s gradient for the MLP&apos;s output</source>
        <translation>残差流梯度为 MLP 输出转成的 16 位副本</translation>
    </message>
    <message>
        <source>gradient of the MLP&apos;s second linear&apos;s input</source>
        <translation>MLP 第二个线性层输入的梯度</translation>
    </message>
    <message>
        <source>, less the loss&apos;s tensors and what the head saved, freed by then,</source>
        <translation>，减去此时已释放的损失张量与输出头保存的张量</translation>
    </message>
    <message>
        <source>(never below 0)</source>
        <translation>（不低于 0）</translation>
    </message>
    <message>
        <source>the loss&apos;s backward, a chunk at a time: FP32 gradients of the log-softmax and of the logits,</source>
        <translation>损失的反向传播逐块进行：log-softmax 与 logits 的 FP32 梯度，</translation>
    </message>
    <message>
        <source>LM-head input of the full chunks, copied by the matmul&apos;s reshape</source>
        <translation>完整分块的 LM 头输入，由 matmul 的 reshape 复制</translation>
    </message>
    <message>
        <source>LM-head input of the last chunk, copied by the matmul&apos;s reshape</source>
        <translation>最后一块的 LM 头输入，由 matmul 的 reshape 复制</translation>
    </message>
    <message>
        <source>gradient of the attention&apos;s output</source>
        <translation>注意力输出的梯度</translation>
    </message>
    <message>
        <source>the FP32 gradient of every position&apos;s loss</source>
        <translation>每个位置的损失的 FP32 梯度</translation>
    </message>
    <message>
        <source>the largest unit&apos;s all-gather output</source>
        <translation>最大单元的聚合输出</translation>
    </message>
    <message>
        <source>its shard&apos;s cast</source>
        <translation>其分片的类型转换副本</translation>
    </message>
    <message>
        <source>cached for FSDP&apos;s copy-in stream all step</source>
        <translation>整步缓存在 FSDP 拷入流的缓存池中</translation>
    </message>
    <message>
        <source>cached for FSDP&apos;s reduce-scatter stream all step</source>
        <translation>整步缓存在 FSDP reduce-scatter 流的缓存池中</translation>
    </message>
    <message>
        <source>allocated at the step&apos;s peak (caching-allocator reserve)</source>
        <translation>步骤峰值时的已分配量（缓存分配器预留）</translation>
    </message>
    <message>
        <source>FP32 gradient of down_proj&apos;s LoRA input (PEFT&apos;s cast to the adapter&apos;s dtype), less LoRA A&apos;s rank-r output</source>
        <translation>down_proj 的 LoRA 输入的 FP32 梯度（PEFT 把输入转换为适配器的数据类型），减去 LoRA A 的秩 r 输出</translation>
    </message>
    <message>
        <source>FP32 gradients of down_proj&apos;s LoRA input before and after LoRA dropout, less LoRA A&apos;s 16-bit input and rank-r output</source>
        <translation>down_proj 的 LoRA 输入在 LoRA dropout 前后的 FP32 梯度，减去 LoRA A 的 16 位输入和秩 r 输出</translation>
    </message>
    <message>
        <source>gradient of the layer&apos;s output (the residual stream), less the MLP dropout&apos;s 1-byte mask, freed first</source>
        <translation>该层输出（残差流）的梯度，减去最先释放的 MLP dropout 1 字节掩码</translation>
    </message>
    <message>
        <source>cuBLAS workspaces for 2 threads (forward&apos;s, autograd&apos;s backward)</source>
        <translation>2 个线程（前向线程、autograd 的反向线程）的 cuBLAS 工作区</translation>
    </message>
    <message>
        <source>compute capability</source>
        <translation>计算能力</translation>
    </message>
    <message>
        <source>Transformer Engine&apos;s workspace</source>
        <translation>Transformer Engine 的工作区</translation>
    </message>
    <message>
        <source>loss_parallel&apos;s backward: zeros for the targets, exp of the log-softmax and their sum, then its product with the loss&apos;s gradient; its forward holds the logits, their FP32 copy and the shifted copy,</source>
        <translation>loss_parallel 的反向：目标位置的零张量、log-softmax 的 exp 及二者之和，再乘以损失的梯度；其前向同时持有 logits、其 FP32 副本与减去最大值后的副本，</translation>
    </message>
    <message>
        <source>freqs_cis, torchtitan&apos;s rotary table:</source>
        <translation>freqs_cis，torchtitan 的旋转位置编码表：</translation>
    </message>
    <message>
        <source>positions</source>
        <translation>个位置</translation>
    </message>
    <message>
        <source>(complex64)</source>
        <translation>（complex64）</translation>
    </message>
    <message>
        <source>context_parallel()&apos;s copies: the rotary table&apos;s clone, kept to restore it,</source>
        <translation>context_parallel() 的副本：为恢复而保留的旋转位置编码表克隆</translation>
    </message>
    <message>
        <source>its shard and the shard&apos;s clone</source>
        <translation>其分片及分片的克隆</translation>
    </message>
    <message>
        <source>the token ids&apos; and the labels&apos; shards (int64)</source>
        <translation>token id 与标签的分片（int64）</translation>
    </message>
    <message>
        <source>attention scores, kept by softmax before PyTorch 1.11</source>
        <translation>注意力分数，由 softmax 保留（PyTorch 1.11 之前）</translation>
    </message>
    <message>
        <source>router logits, kept by softmax before PyTorch 1.11</source>
        <translation>路由 logits，由 softmax 保留（PyTorch 1.11 之前）</translation>
    </message>
    <message>
        <source>16-bit cast of the input, saved by the router</source>
        <translation>输入的 16 位副本，由路由器保存</translation>
    </message>
    <message>
        <source>router input</source>
        <translation>路由器输入</translation>
    </message>
    <message>
        <source>router probabilities (softmax in FP32)</source>
        <translation>路由概率（FP32 下的 softmax）</translation>
    </message>
    <message>
        <source>top-k expert indices (int64)</source>
        <translation>top-k 专家索引（int64）</translation>
    </message>
    <message>
        <source>top-k routing weights (FP32), renormalised in place</source>
        <translation>top-k 路由权重（FP32），原地重新归一化</translation>
    </message>
    <message>
        <source>their sum (FP32)</source>
        <translation>它们的和（FP32）</translation>
    </message>
    <message>
        <source>routed token and slot indices of each expert (int64)</source>
        <translation>每个专家所路由的 token 与槽位索引（int64）</translation>
    </message>
    <message>
        <source>16-bit casts of each expert&apos;s rows, saved by w1</source>
        <translation>每个专家所取行的 16 位副本，由 w1 保存</translation>
    </message>
    <message>
        <source>16-bit casts of each expert&apos;s rows, saved by w3</source>
        <translation>每个专家所取行的 16 位副本，由 w3 保存</translation>
    </message>
    <message>
        <source>each expert&apos;s rows, gathered, saved by w1 and w3</source>
        <translation>每个专家收集到的行，由 w1 和 w3 保存</translation>
    </message>
    <message>
        <source>w1 output, saved by SiLU</source>
        <translation>w1 输出，由 SiLU 保存</translation>
    </message>
    <message>
        <source>SiLU output, saved by × w3</source>
        <translation>SiLU 输出，由 × w3 保存</translation>
    </message>
    <message>
        <source>w3 output, saved by × SiLU</source>
        <translation>w3 输出，由 × SiLU 保存</translation>
    </message>
    <message>
        <source>SiLU × w3, saved by w2</source>
        <translation>SiLU × w3，由 w2 保存</translation>
    </message>
    <message>
        <source>w2 output, saved by × routing weight</source>
        <translation>w2 输出，由 × 路由权重保存</translation>
    </message>
    <message>
        <source>routing weight of each row</source>
        <translation>每行的路由权重</translation>
    </message>
    <message>
        <source>weighted expert output, saved by index_add_</source>
        <translation>加权后的专家输出，由 index_add_ 保存</translation>
    </message>
    <message>
        <source>classifier logits, kept by log-softmax before PyTorch 1.11</source>
        <translation>分类器 logits，由 log-softmax 保留（PyTorch 1.11 之前）</translation>
    </message>
    <message>
        <source>FP32 logits, kept by log-softmax before PyTorch 1.11</source>
        <translation>FP32 logits，由 log-softmax 保留（PyTorch 1.11 之前）</translation>
    </message>
    <message>
        <source>the loss&apos;s backward: FP32 gradients of the log-softmax and of the logits, more than the forward&apos;s logits,</source>
        <translation>损失的反向：log-softmax 与 logits 的 FP32 梯度同时存在，多于前向的 logits</translation>
    </message>
    <message>
        <source>(the 16-bit logits&apos; block: freed before the loss&apos;s backward, whose FP32 buffers, 4 B a logit, take the blocks freed with it but do not fit in it; the allocator keeps it unused until backward reuses it)</source>
        <translation>（16 位 logits 的块：在损失的反向传播之前释放；反向传播的 FP32 缓冲区（每个 logit 4 B）占用与它一同释放的块，却放不进这一块；分配器将它空置保留，直到反向传播重新用上它）</translation>
    </message>
    <message>
        <source>torchtune&apos;s RoPE cache:</source>
        <translation>torchtune 的 RoPE 缓存：</translation>
    </message>
    <message>
        <source>positions (the model&apos;s max_seq_len)</source>
        <translation>个位置（模型的 max_seq_len）</translation>
    </message>
    <message>
        <source>positions (the sequence; no maximum stated)</source>
        <translation>个位置（序列长度；未给出最大位置数）</translation>
    </message>
    <message>
        <source>(FP32 cos and sin)</source>
        <translation>（FP32 的 cos 与 sin）</translation>
    </message>
    <message>
        <source>RoPE cache rows gathered at the packed positions (FP32), saved by the query&apos;s rotation</source>
        <translation>按打包位置取出的 RoPE 缓存行（FP32），由 query 的旋转保存</translation>
    </message>
    <message>
        <source>RoPE cache rows gathered at the packed positions (FP32), saved by the key&apos;s rotation</source>
        <translation>按打包位置取出的 RoPE 缓存行（FP32），由 key 的旋转保存</translation>
    </message>
    <message>
        <source>Qwen2&apos;s RoPE: cos and sin cast to 16 bits, saved by the query&apos;s rotation</source>
        <translation>Qwen2 的 RoPE：转换为 16 位的 cos 与 sin，由 query 的旋转保存</translation>
    </message>
    <message>
        <source>Qwen2&apos;s RoPE: cos and sin cast to 16 bits, saved by the key&apos;s rotation</source>
        <translation>Qwen2 的 RoPE：转换为 16 位的 cos 与 sin，由 key 的旋转保存</translation>
    </message>
    <message>
        <source>Qwen2&apos;s RoPE: cache rows gathered at the packed positions (FP32), saved by the query&apos;s rotation</source>
        <translation>Qwen2 的 RoPE：按打包位置取出的缓存行（FP32），由 query 的旋转保存</translation>
    </message>
    <message>
        <source>Qwen2&apos;s RoPE: cache rows gathered at the packed positions (FP32), saved by the key&apos;s rotation</source>
        <translation>Qwen2 的 RoPE：按打包位置取出的缓存行（FP32），由 key 的旋转保存</translation>
    </message>
    <message>
        <source>tensors</source>
        <translation>个张量</translation>
    </message>
    <message>
        <source>(torchao&apos;s NF4: 4-bit codes, an int8 scaler per 64, a BF16 factor per 16384)</source>
        <translation>（torchao 的 NF4：4 位编码，每 64 个一个 int8 缩放值，每 16384 个一个 BF16 系数）</translation>
    </message>
    <message>
        <source>a block of</source>
        <translation>每块</translation>
    </message>
    <message>
        <source>(torchao&apos;s dequantization: the codes as int64 8 B, their NF4 values 2 B, scaled 2 B, stacked 2 B, and the block scalers)</source>
        <translation>（torchao 的反量化：编码转为 int64 8 B、其 NF4 值 2 B、缩放后 2 B、拼接后 2 B，以及各块的缩放值）</translation>
    </message>
    <message>
        <source>norm statistics (FP32)</source>
        <translation>归一化统计量（FP32）</translation>
    </message>
    <message>
        <source>the final norm&apos;s statistics (FP32)</source>
        <translation>末层归一化的统计量（FP32）</translation>
    </message>
    <message>
        <source>(token ids)</source>
        <translation>（token id）</translation>
    </message>
    <message>
        <source>(token and position ids)</source>
        <translation>（token id 与位置 id）</translation>
    </message>
    <message>
        <source>(token ids shifted to this GPU&apos;s vocabulary and the mask of those outside it)</source>
        <translation>（平移到本 GPU 词表分片的 token id，以及分片外 id 的掩码）</translation>
    </message>
    <message>
        <source>(token ids shifted to this GPU&apos;s vocabulary, the mask of those outside it and position ids)</source>
        <translation>（平移到本 GPU 词表分片的 token id、分片外 id 的掩码以及位置 id）</translation>
    </message>
    <message>
        <source>token ids (int64)</source>
        <translation>token id（int64）</translation>
    </message>
    <message>
        <source>position ids (int64)</source>
        <translation>位置 id（int64）</translation>
    </message>
    <message>
        <source>labels (int64)</source>
        <translation>标签（int64）</translation>
    </message>
    <message>
        <source>loss mask (FP32)</source>
        <translation>损失掩码（FP32）</translation>
    </message>
    <message>
        <source>the data loader&apos;s causal mask</source>
        <translation>数据加载器的因果掩码</translation>
    </message>
    <message>
        <source>booleans</source>
        <translation>个布尔值</translation>
    </message>
    <message>
        <source>, held while the micro-batch runs forward</source>
        <translation>，在微批次前向期间保留</translation>
    </message>
    <message>
        <source>MoE permuted rows and indices</source>
        <translation>MoE 重排后的行及其索引</translation>
    </message>
    <message>
        <source>(the MoE dispatcher&apos;s tokens gathered over TP × EP, Megatron&apos;s all-gather buffer, kept)</source>
        <translation>（MoE 分发器在 TP × EP 上收集的 token，Megatron 的 all-gather 缓冲区，常驻）</translation>
    </message>
    <message>
        <source>(the output layer&apos;s input gathered over TP, Megatron&apos;s all-gather buffer, kept)</source>
        <translation>（输出层在 TP 上收集的输入，Megatron 的 all-gather 缓冲区，常驻）</translation>
    </message>
    <message>
        <source>+ its grouped GEMM&apos;s stream workspaces</source>
        <translation>+ 其分组 GEMM 各计算流的工作区</translation>
    </message>
    <message>
        <source>lit-gpt&apos;s RoPE cache:</source>
        <translation>lit-gpt 的 RoPE 缓存：</translation>
    </message>
    <message>
        <source>positions (the longest sample)</source>
        <translation>个位置（最长的样本）</translation>
    </message>
    <message>
        <source>(each model chunk&apos;s last pipeline input and its gradient, kept until its next forward: between steps, not at the peak)</source>
        <translation>（每个模型分块最后一个微批次的流水线输入及其梯度，保留到它下一次前向：在两步之间，不在峰值处）</translation>
    </message>
    <message>
        <source>, kept until the next step begins (Megatron-LM&apos;s rerun state machine)</source>
        <translation>，保留到下一步开始（Megatron-LM 的重跑状态机）</translation>
    </message>
    <message>
        <source>on tensor-parallel rank 0, which reads the data loader</source>
        <translation>在读取数据加载器的张量并行 rank 0 上</translation>
    </message>
    <message>
        <source>, kept by Megatron-LM&apos;s rerun state machine (--rerun-mode validate_results) until the next step begins</source>
        <translation>，由 Megatron-LM 的重跑状态机（--rerun-mode validate_results）保留到下一步开始</translation>
    </message>
    <message>
        <source>the step&apos;s earlier micro-batches:</source>
        <translation>本步先前的微批次：</translation>
    </message>
    <message>
        <source>the caching allocator&apos;s blocks for lit-gpt&apos;s</source>
        <translation>缓存分配器为 lit-gpt 的</translation>
    </message>
    <message>
        <source>weight tensors, made one after another on the GPU, less the tensors</source>
        <translation>个权重张量（在 GPU 上逐个创建）分配的块，减去张量本身</translation>
    </message>
    <message>
        <source>(a weight of 10 MiB or more gets a segment rounded up to 2 MiB and keeps a remainder of at most 1 MiB; smaller ones are rounded up to 512 B)</source>
        <translation>（10 MiB 及以上的权重独占一个向上取整到 2 MiB 的段，不超过 1 MiB 的余量留在块内；更小的向上取整到 512 B）</translation>
    </message>
    <message>
        <source>(pipeline inputs whose backward has run and the gradients left on them, still referenced beside a steady-state forward: the input the schedule received last in warm-up, until it returns, and each model chunk&apos;s latest input, until its next forward; the most at once)</source>
        <translation>（反向已完成的流水线输入及留在其上的梯度，在稳态前向旁边仍被引用：调度在预热末尾最后接收的输入，直到调度返回；以及每个模型分块最新的输入，直到它下一次前向；取同时存在的最多数量）</translation>
    </message>
    <message>
        <source>(activation gradients the schedule holds: the previous backward&apos;s, beside the next forward and the next backward, and the one a backward started from, until it returns; the most at once)</source>
        <translation>（调度器持有的激活梯度：上一次反向的梯度，在下一次前向和下一次反向期间仍被持有；以及反向起始的梯度，直到该反向返回；取同时最多）</translation>
    </message>
    <message>
        <source>(beside a steady-state backward: the output of the forward before it, sent but not freed until the next forward, and the next forward&apos;s input, received ahead)</source>
        <translation>（在稳态反向旁：它之前那次前向的输出，已发出但要到下一次前向才释放；以及提前接收的下一次前向的输入）</translation>
    </message>
    <message>
        <source>(DDP&apos;s all-reduce buckets, each gradient copied in; not gradient_as_bucket_view)</source>
        <translation>（DDP 的 all-reduce 桶，每个梯度被复制进来；未开启 gradient_as_bucket_view）</translation>
    </message>
    <message>
        <source>(DeepSpeed&apos;s contiguous gradient buckets, one reduced while the other fills: overlap_comm)</source>
        <translation>（DeepSpeed 的连续梯度桶，一个归约时另一个填充：overlap_comm）</translation>
    </message>
    <message>
        <source>foreach AdamW&apos;s √v and √v + eps (out of place before PyTorch 2.1) of every parameter at once, during the step:</source>
        <translation>foreach AdamW 在更新时一次算出所有参数的 √v 与 √v + eps（PyTorch 2.1 之前为非原地）：</translation>
    </message>
    <message>
        <source>AdamW&apos;s √v and √v + eps (out of place before PyTorch 2.1) of one tensor at a time (optimizer in backward)</source>
        <translation>AdamW 每次只算一个张量的 √v 与 √v + eps（PyTorch 2.1 之前为非原地；反向中更新）</translation>
    </message>
    <message>
        <source>for-loop AdamW, one tensor at a time: the previous tensor&apos;s denominator √v / c + eps, bound until the next replaces it, beside the current one&apos;s √v and √v / c, at the widest pair:</source>
        <translation>for-loop AdamW，每次一个张量：上一个张量的分母 √v / c + eps 在被下一个替换前一直保留，与当前张量的 √v 和 √v / c 并存，取最宽的一对：</translation>
    </message>
    <message>
        <source>transformers&apos; AdamW, one tensor at a time: the previous tensor&apos;s √v + eps, bound until the next replaces it, beside the current one&apos;s, at the widest pair:</source>
        <translation>transformers 的 AdamW，每次一个张量：上一个张量的 √v + eps 在被下一个替换前一直保留，与当前张量的并存，取最宽的一对：</translation>
    </message>
    <message>
        <source>AdamW&apos;s √v and √v / c of one tensor at a time (optimizer in backward)</source>
        <translation>AdamW 每次只算一个张量的 √v 与 √v / c（反向中更新）</translation>
    </message>
    <message>
        <source>foreach AdamW&apos;s √v of every weight at once (the biases and norms step after, in a group of their own), during the step:</source>
        <translation>foreach AdamW 在更新时一次算出所有权重的 √v（偏置和归一化参数随后在它们自己的参数组里更新）：</translation>
    </message>
    <message>
        <source>foreach AdamW&apos;s √v and √v + eps (out of place before PyTorch 2.1) of every weight at once (the biases and norms step after, in a group of their own), during the step:</source>
        <translation>foreach AdamW 在更新时一次算出所有权重的 √v 与 √v + eps（PyTorch 2.1 之前为非原地；偏置和归一化参数随后在它们自己的参数组里更新）：</translation>
    </message>
    <message>
        <source>foreach AdamW&apos;s √v of ZeRO&apos;s largest flat partition at once, during the step:</source>
        <translation>foreach AdamW 在更新时一次算出 ZeRO 最大的扁平分片的 √v：</translation>
    </message>
    <message>
        <source>foreach AdamW&apos;s √v and √v + eps (out of place before PyTorch 2.1) of ZeRO&apos;s largest flat partition at once, during the step:</source>
        <translation>foreach AdamW 在更新时一次算出 ZeRO 最大的扁平分片的 √v 与 √v + eps（PyTorch 2.1 之前为非原地）：</translation>
    </message>
    <message>
        <source>Adafactor, one tensor at a time: the previous tensor&apos;s FP32 update, bound until the next replaces it, beside the current one&apos;s grad², update and FP32 copies of its gradient and parameter, at the widest pair:</source>
        <translation>Adafactor，每次一个张量：上一个张量的 FP32 更新量在被下一个替换前一直保留，与当前张量的 grad²、更新量以及其梯度和参数的 FP32 副本并存，取最宽的一对：</translation>
    </message>
    <message>
        <source>Adafactor, one tensor at a time: the previous tensor&apos;s FP32 update, bound until the next replaces it, beside the current one&apos;s grad² and update, at the widest pair:</source>
        <translation>Adafactor，每次一个张量：上一个张量的 FP32 更新量在被下一个替换前一直保留，与当前张量的 grad² 和更新量并存，取最宽的一对：</translation>
    </message>
    <message>
        <source>the largest flat partition</source>
        <translation>最大的扁平分片</translation>
    </message>
    <message>
        <source>(DeepSpeed&apos;s FP32 gradient for the optimizer, during the step)</source>
        <translation>（DeepSpeed 为优化器生成的 FP32 梯度，仅在更新步期间）</translation>
    </message>
    <message>
        <source>DeepSpeed&apos;s 16-bit flat copy of the largest partition&apos;s gradients, converted to FP32,</source>
        <translation>DeepSpeed 为转换成 FP32 而生成的最大分片梯度的 16 位扁平副本，</translation>
    </message>
    <message>
        <source>Adafactor&apos;s second moment, whole: DeepSpeed&apos;s partitions are flat</source>
        <translation>Adafactor 的完整二阶矩：DeepSpeed 的分片是扁平的</translation>
    </message>
    <message>
        <source>the largest trainable module&apos;s gradient</source>
        <translation>最大可训练模块的梯度</translation>
    </message>
    <message>
        <source>kept from a layer&apos;s recomputation to its backward</source>
        <translation>从某层的重计算保留到其反向</translation>
    </message>
    <message>
        <source>more than at the turn from forward to backward,</source>
        <translation>多于前向转入反向时，</translation>
    </message>
    <message>
        <source>(NF4 codes)</source>
        <translation>（NF4 编码）</translation>
    </message>
    <message>
        <source>their quantization constants</source>
        <translation>其量化常数</translation>
    </message>
    <message>
        <source>bits a weight</source>
        <translation>位/权重</translation>
    </message>
    <message>
        <source>whole on every GPU (bitsandbytes&apos; quant_state is not a parameter)</source>
        <translation>在每张 GPU 上完整保存（bitsandbytes 的 quant_state 不是参数）</translation>
    </message>
    <message>
        <source>(4-bit codes), of them the head&apos;s and embedding&apos;s</source>
        <translation>（4 位编码），其中输出头和嵌入层的</translation>
    </message>
    <message>
        <source>(4-bit codes)</source>
        <translation>（4 位编码）</translation>
    </message>
    <message>
        <source>NCCL</source>
        <translation>NCCL</translation>
    </message>
    <message>
        <source>&apos;s NVLS buffers: 16 channels × 2 directions ×</source>
        <translation> 的 NVLS 缓冲区：16 个通道 × 2 个方向 ×</translation>
    </message>
    <message>
        <source>× the node&apos;s GPUs in each communicator:</source>
        <translation>× 每个通信器中该节点的 GPU 数：</translation>
    </message>
    <message>
        <source>buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>flags</source>
        <translation>标志位</translation>
    </message>
    <message>
        <source>in the default group (barriers, zero.Init&apos;s gathers)</source>
        <translation>（默认进程组：屏障、zero.Init 的收集）</translation>
    </message>
    <message>
        <source>in DeepSpeed&apos;s data-parallel group (groups._clone_world_group)</source>
        <translation>（DeepSpeed 的数据并行组，groups._clone_world_group）</translation>
    </message>
    <message>
        <source>in the default group, DDP&apos;s</source>
        <translation>（默认进程组，DDP 所用）</translation>
    </message>
    <message>
        <source>in the tensor-parallel group</source>
        <translation>（张量并行组）</translation>
    </message>
    <message>
        <source>in the context-parallel group</source>
        <translation>（上下文并行组）</translation>
    </message>
    <message>
        <source>in the data-parallel group with the context-parallel GPUs</source>
        <translation>（含上下文并行 GPU 的数据并行组）</translation>
    </message>
    <message>
        <source>in FSDP&apos;s shard group (dp_shard × cp)</source>
        <translation>（FSDP 的分片组，dp_shard × cp）</translation>
    </message>
    <message>
        <source>in HSDP&apos;s replicate group</source>
        <translation>（HSDP 的副本组）</translation>
    </message>
    <message>
        <source>in the default group (barriers)</source>
        <translation>（默认进程组：屏障）</translation>
    </message>
    <message>
        <source>in the distributed optimizer&apos;s group (the gradients&apos; norm)</source>
        <translation>（分布式优化器的进程组：梯度范数）</translation>
    </message>
    <message>
        <source>in the model-parallel group (the gradients&apos; norm)</source>
        <translation>（模型并行组：梯度范数）</translation>
    </message>
    <message>
        <source>in tensors of at most</source>
        <translation>，所在张量不超过</translation>
    </message>
    <message>
        <source>elements, kept whole beside their shards (DeepSpeed&apos;s param_persistence_threshold)</source>
        <translation>个元素，在分片之外保留完整副本（DeepSpeed 的 param_persistence_threshold）</translation>
    </message>
    <message>
        <source>q_norm input in FP32</source>
        <translation>q_norm 的 FP32 输入</translation>
    </message>
    <message>
        <source>q_norm x² (FP32), saved by mean (PyTorch before 2.2)</source>
        <translation>q_norm 的 x²（FP32），由 mean 保存（PyTorch 2.2 之前）</translation>
    </message>
    <message>
        <source>q_norm 1/rms (FP32)</source>
        <translation>q_norm 1/rms（FP32）</translation>
    </message>
    <message>
        <source>q_norm normalized query, saved by × weight</source>
        <translation>q_norm 归一化后的 query，由 × weight 保存</translation>
    </message>
    <message>
        <source>q_norm input, saved by Liger&apos;s kernel</source>
        <translation>q_norm 输入，由 Liger 内核保存</translation>
    </message>
    <message>
        <source>k_norm input in FP32</source>
        <translation>k_norm 的 FP32 输入</translation>
    </message>
    <message>
        <source>k_norm x² (FP32), saved by mean (PyTorch before 2.2)</source>
        <translation>k_norm 的 x²（FP32），由 mean 保存（PyTorch 2.2 之前）</translation>
    </message>
    <message>
        <source>k_norm 1/rms (FP32)</source>
        <translation>k_norm 1/rms（FP32）</translation>
    </message>
    <message>
        <source>k_norm normalized key, saved by × weight</source>
        <translation>k_norm 归一化后的 key，由 × weight 保存</translation>
    </message>
    <message>
        <source>k_norm input, saved by Liger&apos;s kernel</source>
        <translation>k_norm 输入，由 Liger 内核保存</translation>
    </message>
    <message>
        <source>query and key norms&apos; inputs and statistics</source>
        <translation>query 与 key 归一化层的输入与统计量</translation>
    </message>
    <message>
        <source>RMSNorm 1 + weight (FP32), saved by ×</source>
        <translation>RMSNorm 的 1 + weight（FP32），由 × 保存</translation>
    </message>
    <message>
        <source>q_norm 1 + weight (FP32), saved by ×</source>
        <translation>q_norm 的 1 + weight（FP32），由 × 保存</translation>
    </message>
    <message>
        <source>k_norm 1 + weight (FP32), saved by ×</source>
        <translation>k_norm 的 1 + weight（FP32），由 × 保存</translation>
    </message>
    <message>
        <source>post-attention norm input in FP32</source>
        <translation>注意力后归一化的 FP32 输入</translation>
    </message>
    <message>
        <source>post-attention norm x² (FP32), saved by mean (PyTorch before 2.2)</source>
        <translation>注意力后归一化的 x²（FP32），由 mean 保存（PyTorch 2.2 之前）</translation>
    </message>
    <message>
        <source>post-attention norm 1/rms (FP32)</source>
        <translation>注意力后归一化的 1/rms（FP32）</translation>
    </message>
    <message>
        <source>post-attention norm normalized input, saved by × weight</source>
        <translation>注意力后归一化的归一化输入，由 × weight 保存</translation>
    </message>
    <message>
        <source>post-attention norm 1 + weight (FP32), saved by ×</source>
        <translation>注意力后归一化的 1 + weight（FP32），由 × 保存</translation>
    </message>
    <message>
        <source>post-MLP norm input in FP32</source>
        <translation>MLP 后归一化的 FP32 输入</translation>
    </message>
    <message>
        <source>post-MLP norm x² (FP32), saved by mean (PyTorch before 2.2)</source>
        <translation>MLP 后归一化的 x²（FP32），由 mean 保存（PyTorch 2.2 之前）</translation>
    </message>
    <message>
        <source>post-MLP norm 1/rms (FP32)</source>
        <translation>MLP 后归一化的 1/rms（FP32）</translation>
    </message>
    <message>
        <source>post-MLP norm normalized input, saved by × weight</source>
        <translation>MLP 后归一化的归一化输入，由 × weight 保存</translation>
    </message>
    <message>
        <source>post-MLP norm 1 + weight (FP32), saved by ×</source>
        <translation>MLP 后归一化的 1 + weight（FP32），由 × 保存</translation>
    </message>
    <message>
        <source>tanh of the soft-capped scores, saved by tanh</source>
        <translation>软上限注意力分数的 tanh，由 tanh 保存</translation>
    </message>
    <message>
        <source>tanh of the soft-capped logits, saved by tanh</source>
        <translation>软上限 logits 的 tanh，由 tanh 保存</translation>
    </message>
    <message>
        <source>gradients of SiLU&apos;s output and of up_proj&apos;s output, less the post-MLP norm&apos;s saved tensors, freed by then</source>
        <translation>SiLU 输出与 up_proj 输出的梯度，减去此前已释放的 MLP 后归一化所保存的张量</translation>
    </message>
    <message>
        <source>gate_proj output, saved by GELU</source>
        <translation>gate_proj 输出，由 GELU 保存</translation>
    </message>
    <message>
        <source>GELU output, saved by × up</source>
        <translation>GELU 输出，由 × up 保存</translation>
    </message>
    <message>
        <source>up_proj output, saved by × GELU</source>
        <translation>up_proj 输出，由 × GELU 保存</translation>
    </message>
    <message>
        <source>gradients of GELU&apos;s output and of up_proj&apos;s output</source>
        <translation>GELU 输出与 up_proj 输出的梯度</translation>
    </message>
    <message>
        <source>gradients of GELU&apos;s output and of up_proj&apos;s output, less the post-MLP norm&apos;s saved tensors, freed by then</source>
        <translation>GELU 输出与 up_proj 输出的梯度，减去此前已释放的 MLP 后归一化所保存的张量</translation>
    </message>
    <message>
        <source>16-bit gradient of the MLP&apos;s output from the post-MLP norm and the gradient of the MLP&apos;s second linear&apos;s input, less the norm&apos;s saved tensors, freed by then</source>
        <translation>MLP 后归一化传回的 MLP 输出的 16 位梯度，与 MLP 第二个线性层输入的梯度，减去此前已释放的该归一化所保存的张量</translation>
    </message>
    <message>
        <source>16-bit gradient of the MLP&apos;s output from the post-MLP norm and the FP32 gradients of down_proj&apos;s LoRA input, less the norm&apos;s saved tensors and LoRA A&apos;s, freed by then</source>
        <translation>MLP 后归一化传回的 MLP 输出的 16 位梯度，与 down_proj 的 LoRA 输入的 FP32 梯度，减去此前已释放的该归一化与 LoRA A 所保存的张量</translation>
    </message>
    <message>
        <source>the post-MLP norm&apos;s backward: four FP32 tensors the size of its input, less its saved normalized input and 1 + weight, freed by then (before PyTorch 2.2, one FP32 value a row fewer)</source>
        <translation>MLP 后归一化的反向：四个与其输入同大小的 FP32 张量，减去此前已释放的其保存的归一化输入与 1 + weight（PyTorch 2.2 之前每行少一个 FP32 值）</translation>
    </message>
    <message>
        <source>the model whole, as DeepSpeed&apos;s engine moves it to the GPU before ZeRO-3 partitions it</source>
        <translation>整个模型，DeepSpeed 引擎在 ZeRO-3 切分之前将其整体移到 GPU 上</translation>
    </message>
    <message>
        <source>unsharded</source>
        <translation>未切分</translation>
    </message>
    <message>
        <source>less this GPU&apos;s shards of the weights and adapters</source>
        <translation>减去本 GPU 上权重和适配器的分片</translation>
    </message>
    <message>
        <source>at start-up only</source>
        <translation>仅在启动时</translation>
    </message>
    <message>
        <source>allocated at start-up, the run&apos;s peak (caching-allocator reserve)</source>
        <translation>启动时（整个运行的峰值）的已分配量（缓存分配器预留）</translation>
    </message>
    <message>
        <source>gathered by FSDP: root unit</source>
        <translation>FSDP 聚合的参数：根单元</translation>
    </message>
    <message>
        <source>4-bit params</source>
        <translation>个 4 位参数</translation>
    </message>
    <message>
        <source>(packed codes)</source>
        <translation>（打包的编码）</translation>
    </message>
    <message>
        <source>(torchao&apos;s codes, scalers and factors)</source>
        <translation>（torchao 的编码、缩放值和因子）</translation>
    </message>
    <message>
        <source>(a layer)</source>
        <translation>（一层）</translation>
    </message>
    <message>
        <source>(the root)</source>
        <translation>（根单元）</translation>
    </message>
    <message>
        <source>the largest unit&apos;s shard, cast for its all-gather,</source>
        <translation>最大单元的分片，为 all-gather 而转换类型，</translation>
    </message>
    <message>
        <source>none: FSDP1 gathers each unit into its flat parameter</source>
        <translation>无：FSDP1 把每个单元直接聚合进其扁平参数</translation>
    </message>
    <message>
        <source>cached for FSDP&apos;s unshard stream all step</source>
        <translation>整步缓存在 FSDP 聚合（unshard）流的缓存池中</translation>
    </message>
    <message>
        <source>but the quantization constants</source>
        <translation>，量化常数除外</translation>
    </message>
    <message>
        <source>transformers&apos; per-layer RoPE tables:</source>
        <translation>transformers 每层各有的 RoPE 表：</translation>
    </message>
    <message>
        <source>positions (max_position_embeddings)</source>
        <translation>个位置（max_position_embeddings）</translation>
    </message>
    <message>
        <source>(cos and sin)</source>
        <translation>（cos 和 sin）</translation>
    </message>
    <message>
        <source>input ids (int64)</source>
        <translation>输入 id（int64）</translation>
    </message>
    <message>
        <source>attention mask (int64)</source>
        <translation>注意力掩码（int64）</translation>
    </message>
    <message>
        <source>the Trainer&apos;s batch, held through the optimizer step</source>
        <translation>Trainer 的批次，一直保留到优化器更新</translation>
    </message>
    <message>
        <source>with its input ids, which the embedding counts until its backward</source>
        <translation>连同其输入 id（在嵌入层反向之前计入嵌入层）</translation>
    </message>
    <message>
        <source>kept after zero_grad until the next forward (FSDP1&apos;s flat gradients, use_orig_params)</source>
        <translation>zero_grad 之后保留到下一次前向（FSDP1 的扁平梯度，use_orig_params）</translation>
    </message>
    <message>
        <source>FP32 copy</source>
        <translation>FP32 副本</translation>
    </message>
    <message>
        <source>the loss&apos;s backward: FP32 gradients of the log-softmax and of the logits, more than the forward&apos;s logits, FP32 copy and the final norm&apos;s output,</source>
        <translation>损失的反向：log-softmax 与 logits 的 FP32 梯度同时存在，多于前向的 logits、其 FP32 副本与最终归一化层的输出</translation>
    </message>
    <message>
        <source>the loss&apos;s backward: FP32 gradients of the log-softmax and of the logits, more than the forward&apos;s logits and the final norm&apos;s output,</source>
        <translation>损失的反向：log-softmax 与 logits 的 FP32 梯度同时存在，多于前向的 logits 与最终归一化层的输出</translation>
    </message>
    <message>
        <source>shifted FP32 copy, transformers&apos; loss before</source>
        <translation>移位后的 FP32 副本，transformers 早于此版本的损失：</translation>
    </message>
    <message>
        <source>in forward, more than its backward&apos;s gradients,</source>
        <translation>在前向中，多于其反向的梯度</translation>
    </message>
    <message>
        <source>the final norm&apos;s output, held by the model&apos;s output,</source>
        <translation>最终归一化层的输出，由模型输出持有</translation>
    </message>
    <message>
        <source>FP32 logits</source>
        <translation>FP32 logits</translation>
    </message>
    <message>
        <source>the LoRA adapter&apos;s gradients of down_proj&apos;s input</source>
        <translation>LoRA 适配器对 down_proj 输入的梯度</translation>
    </message>
    <message>
        <source>down_proj&apos;s 4-bit backward: the 16-bit gradients of its output and input, the input&apos;s FP32 one and the adapter&apos;s, less what the adapter saved, freed by then</source>
        <translation>down_proj 的 4 位反向：其输出与输入的 16 位梯度、输入的 FP32 梯度和适配器的梯度，减去此时已释放的适配器所保存的张量</translation>
    </message>
    <message>
        <source>gradients of SiLU&apos;s output, of up_proj&apos;s output and of their product, less what the adapter saved, freed by then</source>
        <translation>SiLU 输出、up_proj 输出及二者乘积的梯度，减去此时已释放的适配器所保存的张量</translation>
    </message>
    <message>
        <source>less its input, which the checkpoint keeps and the recomputation saves as it is</source>
        <translation>减去该层的输入：检查点已保存它，重计算原样保存同一张量</translation>
    </message>
    <message>
        <source>FP32 gradient of the value, beyond its 16-bit copy</source>
        <translation>V 的 FP32 梯度（超出其 16 位副本的部分）</translation>
    </message>
    <message>
        <source>router input, kept by its 4-bit linear</source>
        <translation>路由器输入，由其 4-bit 线性层保留</translation>
    </message>
    <message>
        <source>each expert&apos;s rows, gathered, kept by the 4-bit w1 and w3</source>
        <translation>每个专家收集到的行，由 4-bit 的 w1 和 w3 保留</translation>
    </message>
    <message>
        <source>SiLU × w3, kept by the 4-bit w2</source>
        <translation>SiLU × w3，由 4-bit 的 w2 保留</translation>
    </message>
    <message>
        <source>the first expert&apos;s routing product: the gradients of its output and of its routing weight</source>
        <translation>第一个专家的路由乘积：其输出和路由权重的梯度</translation>
    </message>
    <message>
        <source>gradient of the MoE block&apos;s input: the first expert&apos;s rows scattered into every token, beside the routing weights&apos; gradient, less that expert&apos;s saved tensors, freed by then</source>
        <translation>MoE 块输入的梯度：第一个专家的行梯度散射到全部 token 上，加上路由权重的梯度，减去该专家此时已释放的保存张量</translation>
    </message>
    <message>
        <source>gradient of the MoE block&apos;s input: the sum so far, the next expert&apos;s rows scattered into every token and their sum, beside the routing weights&apos; gradient, less two experts&apos; saved tensors, freed by then</source>
        <translation>MoE 块输入的梯度：已累加的和、下一个专家散射到全部 token 上的行梯度以及二者之和，加上路由权重的梯度，减去两个专家此时已释放的保存张量</translation>
    </message>
    <message>
        <source>the recomputed layer&apos;s output, which the reentrant checkpoint holds while the layer&apos;s backward runs</source>
        <translation>重算出的该层输出，可重入检查点在该层反向传播期间一直持有</translation>
    </message>
    <message>
        <source>16-bit casts of the FP32 weights, kept by the cast cache through forward, in the layers&apos; backward the recomputed layer&apos;s alone</source>
        <translation>FP32 权重的 16 位副本：前向期间由类型转换缓存保留，各层反向时只剩正在重计算的层的副本</translation>
    </message>
    <message>
        <source>layer, computed (nothing prefetched after a reentrant checkpoint),</source>
        <translation>层（正在计算的；可重入检查点之后不预取）</translation>
    </message>
    <message>
        <source>FP32 cast of the input, saved by LoRA A</source>
        <translation>输入的 FP32 副本，由 LoRA A 保存</translation>
    </message>
    <message>
        <source>16-bit gradient of down_proj&apos;s output, waiting for its base&apos;s backward</source>
        <translation>down_proj 输出的 16 位梯度，等待其基座层的反向</translation>
    </message>
    <message>
        <source>FP32 gradient of down_proj&apos;s LoRA input (PEFT&apos;s cast up to the adapter&apos;s dtype)</source>
        <translation>down_proj 的 LoRA 输入的 FP32 梯度（PEFT 转成适配器的精度）</translation>
    </message>
    <message>
        <source>FSDP1&apos;s reshard hook on each frozen layer holds the reentrant checkpoint&apos;s input of the layer and its gradient until backward ends: at the first layer&apos;s backward the gradients of</source>
        <translation>FSDP1 在每个冻结层上的重新分片钩子把可重入检查点的该层输入及其梯度一直留到反向结束：在第一层的反向时，另有</translation>
    </message>
    <message>
        <source>other layers&apos; inputs beyond the one the first layer&apos;s backward starts from</source>
        <translation>个其他层输入的梯度（第一层反向起始所用的那个之外）</translation>
    </message>
    <message>
        <source>each, beside their inputs</source>
        <translation>每个，与这些输入同在</translation>
    </message>
    <message>
        <source>the block&apos;s last expert, its backward&apos;s first, taking</source>
        <translation>该块的最后一个专家（反向中的第一个）分到</translation>
    </message>
    <message>
        <source>rows: every token, the most routing can give it</source>
        <translation>行：全部 token，路由最多能给它的量</translation>
    </message>
    <message>
        <source>rows: its even share of tokens × k</source>
        <translation>行：token × k 的平均份额</translation>
    </message>
    <message>
        <source>gradient of the output dense&apos;s input</source>
        <translation>输出全连接层输入的梯度</translation>
    </message>
    <message>
        <source>gradient of the output dense&apos;s input, less the LayerNorm&apos;s FP32 statistics, freed by then</source>
        <translation>输出全连接层输入的梯度，减去届时已释放的 LayerNorm FP32 统计量</translation>
    </message>
    <message>
        <source>the output LayerNorm&apos;s backward: the gradient of the norm&apos;s input</source>
        <translation>输出 LayerNorm 的反向：该归一化输入的梯度</translation>
    </message>
    <message>
        <source>the output LayerNorm&apos;s backward: the gradients of the layer&apos;s output and of the norm&apos;s input</source>
        <translation>输出 LayerNorm 的反向：层输出的梯度和该归一化输入的梯度</translation>
    </message>
    <message>
        <source>gradient of the layer&apos;s output, held by the reentrant checkpoint</source>
        <translation>层输出的梯度，由可重入检查点持有</translation>
    </message>
    <message>
        <source>gradient of the first LayerNorm&apos;s input (the residual stream)</source>
        <translation>第一个 LayerNorm 输入的梯度（残差流）</translation>
    </message>
    <message>
        <source>dropout&apos;s gradient of its output, less the dropout&apos;s 1-byte mask and the LayerNorm&apos;s FP32 statistics, freed by then</source>
        <translation>dropout 给出的其输出的梯度，减去届时已释放的 dropout 1 字节掩码和 LayerNorm 的 FP32 统计量</translation>
    </message>
    <message>
        <source>16-bit copy of the gradient of its output, less the LayerNorm&apos;s FP32 statistics, freed by then</source>
        <translation>其输出梯度的 16 位副本，减去届时已释放的 LayerNorm FP32 统计量</translation>
    </message>
    <message>
        <source>this GPU&apos;s experts at once in the grouped GEMM:</source>
        <translation>本 GPU 的各专家在分组 GEMM 中同时计算：</translation>
    </message>
    <message>
        <source>rows, their share of the tokens × k gathered over TP × EP</source>
        <translation>行，即它们在 TP × EP 上收集的 token × k 中所占的份额</translation>
    </message>
    <message>
        <source>one of this GPU&apos;s experts, which run one after another:</source>
        <translation>本 GPU 的一个专家（各专家依次运行）：</translation>
    </message>
    <message>
        <source>rows, its share of the tokens × k gathered over TP × EP</source>
        <translation>行，即它在 TP × EP 上收集的 token × k 中所占的份额</translation>
    </message>
    <message>
        <source>the FP32 LoRA adapter&apos;s gradient of down_proj&apos;s input</source>
        <translation>FP32 LoRA 适配器对 down_proj 输入的梯度</translation>
    </message>
    <message>
        <source>each layer keeps its input and more:</source>
        <translation>每层保留输入及更多：</translation>
    </message>
    <message>
        <source>the 4-bit linears&apos; inputs, kept in their context past the non-reentrant checkpoint</source>
        <translation>4-bit 线性层的输入，保存在其 autograd 上下文中，越过非重入式检查点一直保留</translation>
    </message>
    <message>
        <source>projection input, kept in the 4-bit linear&apos;s context</source>
        <translation>投影层输入，保存在 4-bit 线性层的上下文中</translation>
    </message>
    <message>
        <source>less the 4-bit linears&apos; inputs its forward kept in their context, which the recomputation holds again only until it returns</source>
        <translation>减去前向时已保存在 4-bit 线性层上下文中的输入（重算只在返回前再次持有它们）</translation>
    </message>
    <message>
        <source>the recomputed forward&apos;s last op: the 4-bit linears&apos; inputs made again in the graph it built, beside the stream after attention, the block&apos;s output and the layer&apos;s output</source>
        <translation>重算前向的最后一步：重算构建的计算图中再次生成的 4-bit 线性层输入，以及注意力之后的残差流、块的输出和该层的输出</translation>
    </message>
    <message>
        <source>the recomputed forward in the MLP&apos;s LoRA: each projection&apos;s base and adapter outputs, their sum and PEFT&apos;s cast of the input, beside the stream after attention, the MLP&apos;s input and SwiGLU&apos;s product, less the layer&apos;s saved tensors not made yet</source>
        <translation>重算前向经过 MLP 的 LoRA 时：每个投影的基座输出与适配器输出、二者之和以及 PEFT 对输入的类型转换，与注意力之后的残差流、MLP 的输入和 SwiGLU 的乘积同在，减去该层尚未生成的保存张量</translation>
    </message>
    <message>
        <source>the first expert&apos;s gradients of SiLU × w3 and of its two factors, beside the routing weights&apos; gradient, less what that expert saved from w2 on (w2&apos;s input and its adapter&apos;s tensors too, where saved), freed by then</source>
        <translation>第一个专家的 SiLU × w3 及其两个因子的梯度，加上路由权重的梯度，减去该专家从 w2 起保存、此时已释放的张量（若保存，还有 w2 的输入及其适配器的张量）</translation>
    </message>
    <message>
        <source>the first expert&apos;s FP32 LoRA adapter on w2: the FP32 gradients of its input beside the 16-bit gradient of the expert&apos;s output waiting for w2&apos;s base and the routing weights&apos; gradient, less the expert&apos;s output, its routing weight and the weighted output, freed by then</source>
        <translation>第一个专家 w2 上的 FP32 LoRA 适配器：其输入的 FP32 梯度，加上等待 w2 基座反向的专家输出 16 位梯度与路由权重的梯度，减去此时已释放的专家输出、其路由权重与加权输出</translation>
    </message>
    <message>
        <source>the recomputed forward at the last expert: the layer&apos;s residual, the norm&apos;s output the block reads, the block&apos;s output so far, the expert mask (int64), the router&apos;s logits and top-k weights, the last expert&apos;s rows and its MLP&apos;s tensors at their widest (with LoRA, each projection&apos;s base and adapter outputs), less the layer&apos;s saved tensors not made yet</source>
        <translation>重算前向到最后一个专家时：该层的残差、块读取的归一化输出、块至此的输出、专家掩码（int64）、路由器的 logits 与 top-k 权重、最后一个专家的行及其 MLP 张量的最宽处（有 LoRA 时含每个投影的基座与适配器输出），减去该层尚未生成的已保存张量</translation>
    </message>
    <message>
        <source>FP32 gradients of the attention probabilities and scores and the softmax backward&apos;s grad × output, less what was saved after the probabilities and the value&apos;s copy, freed by then</source>
        <translation>注意力概率与分数的 FP32 梯度及 softmax 反向的 grad × output，减去此时已释放的、在概率之后保存的张量与 value 的副本</translation>
    </message>
    <message>
        <source>gradients of the attention probabilities and scores and the softmax backward&apos;s grad × output, less what was saved after the probabilities and the value&apos;s copy, freed by then</source>
        <translation>注意力概率与分数的梯度及 softmax 反向的 grad × output，减去此时已释放的、在概率之后保存的张量与 value 的副本</translation>
    </message>
    <message>
        <source>query × √scale, copied by the batched matmul (SDPA&apos;s math kernel)</source>
        <translation>乘以 √scale 的 query，由批量矩阵乘法复制（SDPA 的 math 内核）</translation>
    </message>
    <message>
        <source>key repeated to every head × √scale (SDPA&apos;s math kernel)</source>
        <translation>复制到每个头并乘以 √scale 的 key（SDPA 的 math 内核）</translation>
    </message>
    <message>
        <source>padding mask made additive, saved by SDPA&apos;s memory-efficient kernel</source>
        <translation>转为加性的填充掩码，由 SDPA 的 memory-efficient 内核保存</translation>
    </message>
    <message>
        <source>padding mask (boolean), built by the model and kept by the checkpointed layers</source>
        <translation>填充掩码（布尔型），由模型构建，由各检查点层保留</translation>
    </message>
    <message>
        <source>RoPE&apos;s cos and sin, computed once for a row of positions, saved by every layer&apos;s rotation</source>
        <translation>RoPE 的 cos 与 sin，为一行位置计算一次，由每层的旋转保存</translation>
    </message>
    <message>
        <source>the gradients of the layer&apos;s first norm and of q, k and v, which its backward makes after this moment:</source>
        <translation>该层第一个归一化及 q、k、v 的梯度，其反向传播在此刻之后才生成：</translation>
    </message>
    <message>
        <source>held in forward only</source>
        <translation>仅在前向传播中持有</translation>
    </message>
</context>
<context>
    <name>vl::ui</name>
    <message>
        <source>Parameters</source>
        <translation>模型参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>中间激活</translation>
    </message>
    <message>
        <source>Overhead</source>
        <translation>运行时开销</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>LoRA adapters</source>
        <translation>LoRA 适配器</translation>
    </message>
    <message>
        <source>FSDP gathered parameters</source>
        <translation>FSDP 聚合的参数</translation>
    </message>
    <message>
        <source>FSDP gradient buffers</source>
        <translation>FSDP 梯度缓冲</translation>
    </message>
    <message>
        <source>DeepSpeed gradient bucket</source>
        <translation>DeepSpeed 梯度桶</translation>
    </message>
    <message>
        <source>DeepSpeed offload gradient buffer</source>
        <translation>DeepSpeed 卸载梯度缓冲区</translation>
    </message>
    <message>
        <source>FP32 master copy</source>
        <translation>FP32 主副本</translation>
    </message>
    <message>
        <source>Optimizer moments (m, v)</source>
        <translation>优化器动量（m、v）</translation>
    </message>
    <message>
        <source>Layer activations</source>
        <translation>各层激活</translation>
    </message>
    <message>
        <source>Recomputation working set</source>
        <translation>重计算工作集</translation>
    </message>
    <message>
        <source>Weight casts</source>
        <translation>权重 16 位副本</translation>
    </message>
    <message>
        <source>Final norm, LM head and loss</source>
        <translation>末层归一化、LM 头与损失</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>Allocator reserve</source>
        <translation>分配器预留</translation>
    </message>
    <message>
        <source>Communication buffers</source>
        <translation>通信缓冲区</translation>
    </message>
    <message>
        <source>ZeRO sharding</source>
        <translation>ZeRO 切分</translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>Mixed precision</source>
        <translation>混合精度</translation>
    </message>
    <message>
        <source>Smaller batch or sequence</source>
        <translation>减小批大小或序列长度</translation>
    </message>
    <message>
        <source>ZeRO stage %1 over %2 GPUs</source>
        <translation>在 %2 张 GPU 上用 ZeRO 阶段 %1</translation>
    </message>
    <message>
        <source>full activation recomputation</source>
        <translation>完全重计算激活</translation>
    </message>
    <message>
        <source>BF16 mixed precision with an FP32 master copy</source>
        <translation>BF16 混合精度（保留 FP32 主副本）</translation>
    </message>
    <message>
        <source>sequence %1</source>
        <translation>序列长度 %1</translation>
    </message>
    <message>
        <source>micro-batch %1 × %2 accumulation steps</source>
        <translation>微批 %1 × 累积 %2 步</translation>
    </message>
    <message>
        <source>Current</source>
        <translation>当前</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 张 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>ZeRO %1</source>
        <translation>ZeRO %1</translation>
    </message>
    <message>
        <source>+ %1</source>
        <translation>+ %1</translation>
    </message>
    <message>
        <source>%1: cannot be written (%2)</source>
        <translation>%1：无法写入（%2）</translation>
    </message>
    <message>
        <source>backward, layer %1</source>
        <translation>反向，第 %1 层</translation>
    </message>
    <message>
        <source>the loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>forward, layer %1</source>
        <translation>前向，第 %1 层</translation>
    </message>
    <message>
        <source>before the step</source>
        <translation>训练步开始前</translation>
    </message>
    <message>
        <source>the optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <source>%1: %2 in use (%3)</source>
        <translation>%1：占用 %2（%3）</translation>
    </message>
    <message>
        <source>Offload: 16-bit partition (CPU)</source>
        <translation>卸载：16 位参数分片（CPU）</translation>
    </message>
    <message>
        <source>Offload: FP32 gradients (CPU)</source>
        <translation>卸载：FP32 梯度（CPU）</translation>
    </message>
    <message>
        <source>Offload: gradient staging buffer (CPU)</source>
        <translation>卸载：梯度中转缓冲区（CPU）</translation>
    </message>
    <message>
        <source>Offload: accumulated gradients (CPU)</source>
        <translation>卸载：累积梯度（CPU）</translation>
    </message>
    <message>
        <source>ZeRO-3 gathered parameters</source>
        <translation>ZeRO-3 聚合的参数</translation>
    </message>
    <message>
        <source>QLoRA dequantized module</source>
        <translation>QLoRA 反量化模块</translation>
    </message>
    <message>
        <source>Logits</source>
        <translation>logits</translation>
    </message>
    <message>
        <source>FP8 weight copies</source>
        <translation>FP8 权重副本</translation>
    </message>
    <message>
        <source>FSDP gradients accumulated without sync</source>
        <translation>FSDP 不同步累积的梯度</translation>
    </message>
    <message>
        <source>Activations in transit</source>
        <translation>传输中的激活</translation>
    </message>
    <message>
        <source>Paged optimizer states (managed memory)</source>
        <translation>分页优化器状态（统一内存）</translation>
    </message>
    <message>
        <source>Optimizer step intermediates</source>
        <translation>优化器更新的中间张量</translation>
    </message>
    <message>
        <source>Backward working set</source>
        <translation>反向传播工作集</translation>
    </message>
    <message>
        <source>FSDP all-gather buffers</source>
        <translation>FSDP 聚合缓冲区</translation>
    </message>
    <message>
        <source>cuBLAS workspaces</source>
        <translation>cuBLAS 工作区</translation>
    </message>
    <message>
        <source>5 — Maxwell</source>
        <translation>5 — Maxwell</translation>
    </message>
    <message>
        <source>6 — Pascal (P100)</source>
        <translation>6 — Pascal（P100）</translation>
    </message>
    <message>
        <source>7 — Volta, Turing (V100, T4)</source>
        <translation>7 — Volta、Turing（V100、T4）</translation>
    </message>
    <message>
        <source>8 — Ampere, Ada (A100, L40S, RTX 30/40)</source>
        <translation>8 — Ampere、Ada（A100、L40S、RTX 30/40）</translation>
    </message>
    <message>
        <source>9 — Hopper (H100, H200)</source>
        <translation>9 — Hopper（H100、H200）</translation>
    </message>
    <message>
        <source>10 — Blackwell (B200)</source>
        <translation>10 — Blackwell（B200）</translation>
    </message>
    <message>
        <source>11 — Blackwell (Thor)</source>
        <translation>11 — Blackwell（Thor）</translation>
    </message>
    <message>
        <source>12 — Blackwell (RTX 50)</source>
        <translation>12 — Blackwell（RTX 50）</translation>
    </message>
    <message>
        <source>Rotary table</source>
        <translation>旋转位置编码表</translation>
    </message>
    <message>
        <source>Context-parallel copies</source>
        <translation>上下文并行副本</translation>
    </message>
    <message numerus="yes">
        <source>Current, %n GPU(s)</source>
        <translation>
            <numerusform>当前，%n 张 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>FP16 mixed precision with an FP32 master copy and loss scaling</source>
        <translation>FP16 混合精度（保留 FP32 主副本，需损失缩放）</translation>
    </message>
    <message>
        <source>Freed logits block</source>
        <translation>已释放的 logits 块</translation>
    </message>
    <message>
        <source>Input batch</source>
        <translation>输入批次</translation>
    </message>
    <message>
        <source>Embedding layer</source>
        <translation>嵌入层</translation>
    </message>
    <message>
        <source>Pipeline gradients in flight</source>
        <translation>流水线中在途的梯度</translation>
    </message>
    <message>
        <source>Pipeline inputs kept between steps</source>
        <translation>两步之间保留的流水线输入</translation>
    </message>
    <message>
        <source>All-gather buffer</source>
        <translation>All-gather 缓冲区</translation>
    </message>
    <message>
        <source>Batches kept for a rerun</source>
        <translation>为重跑保留的批次</translation>
    </message>
    <message>
        <source>Weights&apos; block tails</source>
        <translation>权重块尾部余量</translation>
    </message>
    <message>
        <source>Pipeline inputs held after their backward</source>
        <translation>反向之后仍被持有的流水线输入</translation>
    </message>
    <message>
        <source>Pipeline output and next input beside backward</source>
        <translation>反向期间的流水线输出与下一输入</translation>
    </message>
    <message>
        <source>DDP gradient buckets</source>
        <translation>DDP 梯度桶</translation>
    </message>
    <message>
        <source>DeepSpeed FP32 step gradients</source>
        <translation>DeepSpeed 更新步的 FP32 梯度</translation>
    </message>
    <message>
        <source>NCCL NVLS buffers</source>
        <translation>NCCL NVLS 缓冲区</translation>
    </message>
    <message>
        <source>ZeRO-3 persistent parameters</source>
        <translation>ZeRO-3 常驻参数</translation>
    </message>
    <message>
        <source>Model before partitioning (start-up)</source>
        <translation>切分前的模型（启动时）</translation>
    </message>
    <message>
        <source>start-up</source>
        <translation>启动时</translation>
    </message>
    <message>
        <source>Checkpoints FSDP1 keeps in backward</source>
        <translation>FSDP1 在反向中留住的检查点</translation>
    </message>
</context>
</TS>
